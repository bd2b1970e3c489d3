// tests/unit/tools/svg_render_test.cpp — the flame graph and sequence diagram SVGs: well-formed, escaped, to scale.
#include "tools/svg_render.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace beamlet::tools {
namespace {

// True when [text] at [at] starts an entity reference XML knows without a DTD.
bool is_entity(std::string_view text, std::size_t at) {
    std::size_t end = text.find(';', at);
    if (end == std::string_view::npos || end - at > 10) return false;
    std::string_view name = text.substr(at + 1, end - at - 1);
    if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos") return true;
    if (name.size() < 2 || name[0] != '#') return false;
    bool hex = name[1] == 'x';
    std::string_view digits = name.substr(hex ? 2 : 1);
    if (digits.empty()) return false;
    for (char c : digits)
        if (!(c >= '0' && c <= '9') && !(hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))) return false;
    return true;
}

// Checks that [text] is character data without a raw '<' and with '&' only in entity references.
std::string check_characters(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '<') return "raw '<' in text";
        if (text[i] == '&' && !is_entity(text, i)) return "bare '&' in: " + std::string(text.substr(i, 20));
    }
    return {};
}

// A small well-formedness checker: one root element, balanced tags, quoted attributes, escaped
// text; comments, processing instructions and CDATA sections are skipped. Empty when fine.
std::string check_xml(std::string_view xml) {
    std::vector<std::string> open;
    int roots = 0;
    std::size_t i = 0;
    while (i < xml.size()) {
        std::size_t lt = xml.find('<', i);
        std::string_view text = xml.substr(i, lt == std::string_view::npos ? std::string_view::npos : lt - i);
        if (auto error = check_characters(text); !error.empty()) return error;
        if (open.empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos) return "text outside the root";
        if (lt == std::string_view::npos) break;
        auto skip_to = [&](std::string_view close) {
            std::size_t end = xml.find(close, lt);
            return end == std::string_view::npos ? end : end + close.size();
        };
        std::size_t end;
        if (xml.substr(lt, 4) == "<!--") {
            end = skip_to("-->");
        } else if (xml.substr(lt, 9) == "<![CDATA[") {
            if (open.empty()) return "CDATA outside the root";
            end = skip_to("]]>");
        } else if (xml.substr(lt, 2) == "<?" || xml.substr(lt, 2) == "<!") {
            end = skip_to(">");
        } else {
            bool closing = xml.substr(lt, 2) == "</";
            std::size_t p = lt + (closing ? 2 : 1), name_start = p;
            while (p < xml.size() && xml[p] != '>' && xml[p] != '/' && xml[p] != ' ' && xml[p] != '\n') ++p;
            std::string name(xml.substr(name_start, p - name_start));
            if (name.empty()) return "empty tag name";
            // Attributes: name="value" pairs, values without '<' and with escaped '&'.
            while (p < xml.size() && xml[p] != '>' && xml[p] != '/') {
                if (xml[p] == ' ' || xml[p] == '\n') { ++p; continue; }
                std::size_t eq = xml.find('=', p);
                if (eq == std::string_view::npos || eq + 1 >= xml.size()) return "attribute without value in <" + name;
                char quote = xml[eq + 1];
                if (quote != '"' && quote != '\'') return "unquoted attribute in <" + name;
                std::size_t close = xml.find(quote, eq + 2);
                if (close == std::string_view::npos) return "unterminated attribute in <" + name;
                if (auto error = check_characters(xml.substr(eq + 2, close - eq - 2)); !error.empty()) return error;
                p = close + 1;
            }
            bool self_closing = p < xml.size() && xml[p] == '/';
            if (self_closing) ++p;
            if (p >= xml.size() || xml[p] != '>') return "unterminated tag <" + name;
            end = p + 1;
            if (closing) {
                if (open.empty() || open.back() != name) return "unbalanced </" + name + ">";
                open.pop_back();
            } else if (!self_closing) {
                if (open.empty() && ++roots > 1) return "second root <" + name + ">";
                open.push_back(name);
            } else if (open.empty() && ++roots > 1) {
                return "second root <" + name + "/>";
            }
        }
        if (end == std::string_view::npos) return "unterminated markup";
        i = end;
    }
    if (!open.empty()) return "unclosed <" + open.back() + ">";
    return roots == 1 ? "" : "no root element";
}

// How many times [needle] occurs in [haystack].
std::size_t count(std::string_view haystack, std::string_view needle) {
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string_view::npos; at = haystack.find(needle, at + 1)) ++n;
    return n;
}

// The numeric value of attribute [name] in the first element after [from] in [svg] that has it.
double attribute_after(const std::string& svg, std::size_t from, const std::string& name) {
    std::size_t at = svg.find(" " + name + "=\"", from);
    EXPECT_NE(at, std::string::npos) << name;
    return at == std::string::npos ? -1 : std::stod(svg.substr(at + name.size() + 3));
}

// The width of the rect of the frame whose tooltip starts with [name] " (".
double frame_width(const std::string& svg, const std::string& name) {
    std::size_t title = svg.find("<title>" + name + " (");
    EXPECT_NE(title, std::string::npos) << name;
    return title == std::string::npos ? -1 : attribute_after(svg, title, "width");
}

const std::map<std::string, std::uint64_t> THREE_STACKS = {{"a;b", 100}, {"a;c", 200}, {"d", 300}};

TEST(FlameGraph, IsWellFormedXml) {
    std::string svg = flame_graph_svg(THREE_STACKS, "three stacks", "us");
    EXPECT_EQ(check_xml(svg), "");
    EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
    EXPECT_NE(svg.find("width=\"1200\""), std::string::npos);
}

TEST(FlameGraph, TheCheckerRejectsBrokenXml) {
    EXPECT_NE(check_xml("<svg><g></svg>"), "");
    EXPECT_NE(check_xml("<svg><text>a<b</text></svg>"), "");
    EXPECT_NE(check_xml("<svg><text>a & b</text></svg>"), "");
    EXPECT_NE(check_xml("<svg a=\"<\"/>"), "");
    EXPECT_EQ(check_xml("<?xml version=\"1.0\"?>\n<svg><g a=\"&amp;\"/><![CDATA[ a < b ]]></svg>\n"), "");
}

TEST(FlameGraph, EscapesFrameNamesTitlesAndUnits) {
    std::string svg = flame_graph_svg({{"main;a<b>&\"c\"", 10}}, "t<&>", "\"us\"");
    EXPECT_EQ(check_xml(svg), "");
    EXPECT_NE(svg.find("<title>a&lt;b&gt;&amp;&quot;c&quot; (10 &quot;us&quot;, 100.00%)</title>"), std::string::npos);
    EXPECT_NE(svg.find(">t&lt;&amp;&gt;</text>"), std::string::npos);
    EXPECT_EQ(svg.find("a<b>"), std::string::npos);
}

TEST(FlameGraph, ReplacesInvalidUtf8AndControlCharacters) {
    std::string svg = flame_graph_svg({{"caf\xC3\xA9;\xE6\xBC\xA2\xE5\xAD\x97;bad\xFF\x01;x", 5}}, "utf8", "us");
    EXPECT_EQ(check_xml(svg), "");
    EXPECT_NE(svg.find("<title>caf\xC3\xA9 ("), std::string::npos);
    EXPECT_NE(svg.find("<title>\xE6\xBC\xA2\xE5\xAD\x97 ("), std::string::npos);
    EXPECT_NE(svg.find("<title>bad\xEF\xBF\xBD\xEF\xBF\xBD ("), std::string::npos);
    EXPECT_EQ(svg.find('\x01'), std::string::npos);
}

TEST(FlameGraph, FrameWidthsAreProportionalToWeights) {
    std::string svg = flame_graph_svg(THREE_STACKS, "three stacks", "us");
    double all = frame_width(svg, "all");
    EXPECT_NEAR(all, 1180, 0.01);
    EXPECT_NEAR(frame_width(svg, "a"), all * 300 / 600, 0.01);
    EXPECT_NEAR(frame_width(svg, "d"), all * 300 / 600, 0.01);
    EXPECT_NEAR(frame_width(svg, "b"), all * 100 / 600, 0.01);
    EXPECT_NEAR(frame_width(svg, "c"), all * 200 / 600, 0.01);
    // Siblings are laid out by name: b starts where a starts, c right after b.
    double a_x = attribute_after(svg, svg.find("<title>a ("), "x");
    EXPECT_NEAR(attribute_after(svg, svg.find("<title>b ("), "x"), a_x, 0.01);
    EXPECT_NEAR(attribute_after(svg, svg.find("<title>c ("), "x"), a_x + all * 100 / 600, 0.01);
}

TEST(FlameGraph, TooltipsGiveValueUnitAndPercent) {
    std::string svg = flame_graph_svg({{"a;b", 1000}, {"a", 234}, {"c", 1}}, "t", "us");
    EXPECT_NE(svg.find("<title>all (1,235 us, 100.00%)</title>"), std::string::npos);
    EXPECT_NE(svg.find("<title>a (1,234 us, 99.92%)</title>"), std::string::npos);
    EXPECT_NE(svg.find("<title>b (1,000 us, 80.97%)</title>"), std::string::npos);
}

TEST(FlameGraph, OmitsFramesNarrowerThanATenthOfAPercent) {
    std::map<std::string, std::uint64_t> stacks = {
        {"big", 100000}, {"tiny", 50}, {"big;child_of_big_but_tiny", 10}, {"medium", 300}, {"tiny;deeper", 20}};
    std::string svg = flame_graph_svg(stacks, "narrow", "us");
    EXPECT_EQ(check_xml(svg), "");
    EXPECT_NE(svg.find("<title>big ("), std::string::npos);
    EXPECT_NE(svg.find("<title>medium ("), std::string::npos);
    EXPECT_EQ(svg.find("<title>tiny ("), std::string::npos);
    EXPECT_EQ(svg.find("<title>deeper ("), std::string::npos);
    EXPECT_EQ(svg.find("child_of_big_but_tiny"), std::string::npos);
    EXPECT_EQ(count(svg, "<g class=\"f\""), 3u);  // all, big, medium.
}

TEST(FlameGraph, AbbreviatesLabelsToTheFrameWidth) {
    std::string long_name = "a_module_with_a_long_name:a_function_with_an_even_longer_name/3";
    std::string svg = flame_graph_svg({{long_name, 30}, {"other", 970}}, "t", "us");
    std::size_t title = svg.find("<title>" + long_name + " (");
    ASSERT_NE(title, std::string::npos);
    double width = attribute_after(svg, title, "width");
    std::size_t text = svg.find("<text", title);
    std::size_t start = svg.find('>', text) + 1;
    std::string label = svg.substr(start, svg.find("</text>", start) - start);
    EXPECT_LT(label.size(), long_name.size());
    EXPECT_LE(static_cast<double>(label.size()) * 6.7, width);
    EXPECT_EQ(label.substr(label.size() - 2), "..");
    EXPECT_EQ(long_name.rfind(label.substr(0, label.size() - 2), 0), 0u);
}

TEST(FlameGraph, IdenticalInputGivesIdenticalOutput) {
    std::map<std::string, std::uint64_t> stacks = THREE_STACKS;
    stacks["main:main/0;ring:hop/1;lists:seq/2"] = 42;
    EXPECT_EQ(flame_graph_svg(stacks, "t", "us"), flame_graph_svg(stacks, "t", "us"));
    std::map<std::string, std::uint64_t> copy(stacks.rbegin(), stacks.rend());
    EXPECT_EQ(flame_graph_svg(stacks, "t", "us"), flame_graph_svg(copy, "t", "us"));
}

TEST(FlameGraph, ColoursDependOnTheNameOnly) {
    std::string one = flame_graph_svg({{"x;lists:seq/2", 5}}, "t", "us");
    std::string two = flame_graph_svg({{"y;z;lists:seq/2", 9}}, "t", "us");
    auto fill = [](const std::string& svg) {
        std::size_t at = svg.find("fill=\"", svg.find("<title>lists:seq/2 (")) + 6;
        return svg.substr(at, svg.find('"', at) - at);
    };
    EXPECT_EQ(fill(one), fill(two));
    EXPECT_EQ(fill(one).rfind("rgb(", 0), 0u);
}

TEST(FlameGraph, EmptyInputSaysNoData) {
    using Stacks = std::map<std::string, std::uint64_t>;
    for (const Stacks& stacks : {Stacks{}, Stacks{{"a", 0}}}) {
        std::string svg = flame_graph_svg(stacks, "empty", "us");
        EXPECT_EQ(check_xml(svg), "");
        EXPECT_NE(svg.find("no data"), std::string::npos);
        EXPECT_EQ(svg.find("class=\"f\""), std::string::npos);
    }
}

const std::vector<SequenceMessage> PING_PONG = {
    {100, 110, "<0.90.0> main", "<0.91.0> ping", "{ping,1}"},
    {120, 125, "<0.91.0> ping", "<0.92.0> pong", "{ping,2}"},
    {130, -1, "<0.92.0> pong", "<0.90.0> main", "done"},
};

TEST(SequenceDiagram, HasALifelinePerParticipantAndAnArrowPerMessage) {
    std::string svg = sequence_diagram_svg(PING_PONG, {}, "ping pong");
    EXPECT_EQ(check_xml(svg), "");
    EXPECT_EQ(count(svg, "class=\"lifeline\""), 3u);
    EXPECT_EQ(count(svg, "class=\"arrow\""), 3u);
    EXPECT_EQ(count(svg, "class=\"msg\""), 3u);
    EXPECT_NE(svg.find("marker-end=\"url(#head)\""), std::string::npos);
    // Lifelines in order of first appearance.
    std::size_t main = svg.find("<title>&lt;0.90.0&gt; main</title>");
    std::size_t ping = svg.find("<title>&lt;0.91.0&gt; ping</title>");
    std::size_t pong = svg.find("<title>&lt;0.92.0&gt; pong</title>");
    ASSERT_NE(pong, std::string::npos);
    EXPECT_LT(main, ping);
    EXPECT_LT(ping, pong);
}

TEST(SequenceDiagram, FollowsTheGivenParticipantOrderThenAppendsTheRest) {
    std::string svg = sequence_diagram_svg(PING_PONG, {"<0.92.0> pong", "idle"}, "ordered");
    EXPECT_EQ(check_xml(svg), "");
    EXPECT_EQ(count(svg, "class=\"lifeline\""), 4u);
    std::size_t pong = svg.find("<title>&lt;0.92.0&gt; pong</title>");
    std::size_t idle = svg.find("<title>idle</title>");
    std::size_t main = svg.find("<title>&lt;0.90.0&gt; main</title>");
    ASSERT_NE(main, std::string::npos);
    EXPECT_LT(pong, idle);
    EXPECT_LT(idle, main);
}

TEST(SequenceDiagram, SlantsArrowsOnlyWhenTheReceiveTimeIsKnown) {
    std::string svg = sequence_diagram_svg(PING_PONG, {}, "slant");
    std::size_t first = svg.find("<line class=\"arrow\"");
    std::size_t second = svg.find("<line class=\"arrow\"", first + 1);
    // Sent at 100 and received at 110, before the next send at 120: slanted, ending above the next row.
    EXPECT_LT(attribute_after(svg, first, "y1"), attribute_after(svg, first, "y2"));
    EXPECT_LT(attribute_after(svg, first, "y2"), attribute_after(svg, second, "y1"));
    std::size_t last = svg.rfind("<line class=\"arrow\"");
    EXPECT_EQ(attribute_after(svg, last, "y1"), attribute_after(svg, last, "y2"));  // Unknown: horizontal.
    EXPECT_NE(svg.find("receive time unknown"), std::string::npos);
}

TEST(SequenceDiagram, DrawsSelfMessagesAsLoops) {
    std::vector<SequenceMessage> messages = {{0, 5, "a", "a", "tick"}, {10, -1, "a", "b", "go"}};
    std::string svg = sequence_diagram_svg(messages, {}, "loops");
    EXPECT_EQ(check_xml(svg), "");
    EXPECT_EQ(count(svg, "class=\"lifeline\""), 2u);
    EXPECT_EQ(count(svg, "<path class=\"arrow\""), 1u);
    EXPECT_EQ(count(svg, "<line class=\"arrow\""), 1u);
    EXPECT_NE(svg.find(">tick</text>"), std::string::npos);
}

TEST(SequenceDiagram, AbbreviatesAndEscapesLabelsKeepingTheFullTextInTheTooltip) {
    std::string label = "{reply,<<\"" + std::string(200, 'x') + "\">>,a&b}";
    std::string svg = sequence_diagram_svg({{0, 1, "p", "q", label}}, {}, "labels");
    EXPECT_EQ(check_xml(svg), "");
    std::string escaped = "{reply,&lt;&lt;&quot;" + std::string(200, 'x') + "&quot;&gt;&gt;,a&amp;b}";
    EXPECT_NE(svg.find("<title>" + escaped + "&#10;p \u2192 q&#10;sent +0 \u00b5s, received +1 \u00b5s</title>"),
              std::string::npos);
    EXPECT_NE(svg.find("\u2026</text>"), std::string::npos);
    EXPECT_EQ(svg.find(std::string(100, 'x') + "\u2026"), std::string::npos);
}

TEST(SequenceDiagram, KeepsAMinimumRowSpacingForThousandsOfMessages) {
    std::vector<SequenceMessage> messages;
    for (int i = 0; i < 3000; ++i)
        messages.push_back({1000.0 + i * 0.25, -1, "p" + std::to_string(i % 4), "p" + std::to_string((i + 1) % 4),
                            "m"});
    std::string svg = sequence_diagram_svg(messages, {}, "many");
    EXPECT_EQ(check_xml(svg), "");
    EXPECT_EQ(count(svg, "class=\"arrow\""), 3000u);
    double previous = -1e9;
    std::size_t at = 0;
    while ((at = svg.find("class=\"arrow\"", at + 1)) != std::string::npos) {
        double y = attribute_after(svg, at, "y1");
        ASSERT_GE(y - previous, 24.0);
        previous = y;
    }
    EXPECT_GT(attribute_after(svg, svg.find("<svg"), "height"), 3000 * 24.0);
}

TEST(SequenceDiagram, SortsBySendTimeAndPrintsTimesRelativeToTheFirst) {
    std::vector<SequenceMessage> messages = {{5000, -1, "a", "b", "second"}, {1000, -1, "b", "a", "first"}};
    std::string svg = sequence_diagram_svg(messages, {}, "order");
    EXPECT_LT(svg.find(">first</text>"), svg.find(">second</text>"));
    EXPECT_NE(svg.find(">+0</text>"), std::string::npos);
    EXPECT_NE(svg.find(">+4000</text>"), std::string::npos);
    EXPECT_NE(svg.find("time (\u00b5s)"), std::string::npos);
}

TEST(SequenceDiagram, IdenticalInputGivesIdenticalOutput) {
    EXPECT_EQ(sequence_diagram_svg(PING_PONG, {}, "t"), sequence_diagram_svg(PING_PONG, {}, "t"));
}

TEST(SequenceDiagram, EmptyInputSaysNoData) {
    std::string svg = sequence_diagram_svg({}, {}, "nothing");
    EXPECT_EQ(check_xml(svg), "");
    EXPECT_NE(svg.find("no data"), std::string::npos);
    std::string idle = sequence_diagram_svg({}, {"a", "b"}, "idle");
    EXPECT_EQ(check_xml(idle), "");
    EXPECT_NE(idle.find("no data"), std::string::npos);
    EXPECT_EQ(count(idle, "class=\"lifeline\""), 2u);
}

}  // namespace
}  // namespace beamlet::tools
