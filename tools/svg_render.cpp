// tools/svg_render.cpp — flame graph and sequence diagram SVGs, deterministic and self-contained.
#include "tools/svg_render.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <utility>

namespace beamlet::tools {
namespace {

// Frame labels and message labels use a monospace font, so a label's width is predictable.
constexpr std::string_view FONT_FAMILY = "Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace";
constexpr double FONT_PX = 11;
// The advance of one monospace column at FONT_PX (0.6 em, rounded up so labels never overflow).
constexpr double CHAR_PX = 6.7;

// Decodes UTF-8, replacing invalid sequences and characters XML forbids (controls, U+FFFE/U+FFFF)
// with U+FFFD, so every string that reaches the SVG is well-formed.
std::u32string decode_utf8(std::string_view text) {
    std::u32string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        auto byte = static_cast<unsigned char>(text[i]);
        int length = byte < 0x80 ? 1 : byte >= 0xC2 && byte <= 0xDF ? 2 : byte >= 0xE0 && byte <= 0xEF ? 3
                   : byte >= 0xF0 && byte <= 0xF4 ? 4 : 0;
        char32_t cp = length == 1 ? byte : length == 2 ? (byte & 0x1F) : length == 3 ? (byte & 0x0F) : (byte & 0x07);
        bool valid = length > 0 && i + length <= text.size();
        for (int k = 1; valid && k < length; ++k) {
            auto next = static_cast<unsigned char>(text[i + k]);
            valid = (next & 0xC0) == 0x80;
            cp = (cp << 6) | (next & 0x3F);
        }
        // Overlong forms, surrogates and values past U+10FFFF are invalid too.
        if (valid && ((length == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
                      (length == 4 && (cp < 0x10000 || cp > 0x10FFFF))))
            valid = false;
        if (!valid) {
            out.push_back(U'\uFFFD');
            ++i;
            continue;
        }
        bool allowed = cp >= 0x20 ? cp != 0xFFFE && cp != 0xFFFF : cp == '\t' || cp == '\n' || cp == '\r';
        out.push_back(allowed ? cp : U'\uFFFD');
        i += length;
    }
    return out;
}

// Appends [cp] to [out] as UTF-8.
void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

// Text (or attribute value) [text] escaped for XML; newlines become &#10; so attributes keep them.
std::string escape(std::u32string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char32_t cp : text) {
        switch (cp) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        case '\n': out += "&#10;"; break;
        case '\r': out += "&#13;"; break;
        case '\t': out += "&#9;"; break;
        default: append_utf8(out, cp);
        }
    }
    return out;
}

std::string escape(std::string_view text) { return escape(decode_utf8(text)); }

// Monospace columns taken by [cp]: 2 for East Asian wide characters and emoji, else 1.
int columns(char32_t cp) {
    bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
                (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) || (cp >= 0x20000 && cp <= 0x3FFFD);
    return wide ? 2 : 1;
}

// [text] cut to fit [width_px] with [ellipsis] marking the cut; empty when under 3 columns fit.
std::u32string abbreviate(const std::u32string& text, double width_px, std::u32string_view ellipsis) {
    auto available = static_cast<long>(std::floor(width_px / CHAR_PX));
    if (available < 3) return {};
    long used = 0;
    for (char32_t cp : text) used += columns(cp);
    if (used <= available) return text;
    long budget = available - static_cast<long>(ellipsis.size());
    std::u32string out;
    for (char32_t cp : text) {
        if ((budget -= columns(cp)) < 0) break;
        out.push_back(cp);
    }
    return out.append(ellipsis);
}

// [value] with [decimals] digits after the point, independent of the C locale; never "-0".
std::string number(double value, int decimals = 2) {
    if (!std::isfinite(value) || std::abs(value) < 0.5 * std::pow(10.0, -decimals)) value = 0;
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    return std::string(buffer, result.ptr);
}

// [value] with thousands separators: 1234567 -> "1,234,567".
std::string grouped(std::uint64_t value) {
    std::string digits = std::to_string(value), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

// FNV-1a, a fixed hash (std::hash may differ between library versions) for stable colours.
std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    return hash;
}

// The document prologue and the <svg> element of a [width] x [height] picture.
std::string svg_open(double width, double height) {
    std::string w = number(width, 0), h = number(height, 0);
    return "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + w + "\" height=\"" + h +
           "\" viewBox=\"0 0 " + w + " " + h + "\" font-family=\"" + escape(FONT_FAMILY) + "\" font-size=\"" +
           number(FONT_PX, 0) + "\">\n";
}

// A small SVG with [title] over the words "no data", for empty input.
std::string no_data_svg(const std::string& title) {
    return svg_open(400, 100) + "<rect width=\"400\" height=\"100\" fill=\"#ffffff\"/>\n"
           "<text x=\"200\" y=\"30\" font-size=\"15\" text-anchor=\"middle\">" + escape(title) + "</text>\n"
           "<text x=\"200\" y=\"65\" text-anchor=\"middle\" fill=\"#777777\">no data</text>\n</svg>\n";
}

// ---------------------------------------------------------------------------------------------
// Flame graph

// One node of the merged call tree; children are keyed (and so ordered) by frame name.
struct FlameNode {
    std::string name;
    std::uint64_t total = 0;
    std::map<std::string, std::size_t> children;
};

// A frame that is drawn: its node, first weight unit from the left and depth (0 = "all").
struct FlameFrame {
    std::size_t node;
    std::uint64_t start;
    int depth;
};

// The warm palette of flamegraph.pl ("hot"): red to yellow. The module (text before ':') picks
// most of the hue so one module's frames look alike; the full name varies it slightly.
std::string frame_colour(const std::string& name) {
    std::uint64_t module_hash = fnv1a(std::string_view(name).substr(0, name.find(':')));
    std::uint64_t name_hash = fnv1a(name);
    std::uint64_t hue = ((module_hash & 0xFFFF) * 7 + (name_hash & 0xFFFF) * 3) / 10;  // 0..65535
    std::uint64_t red = 205 + 50 * ((name_hash >> 16) & 0xFFFF) / 0xFFFF;
    std::uint64_t green = 230 * hue / 0xFFFF;
    std::uint64_t blue = 55 * ((name_hash >> 32) & 0xFFFF) / 0xFFFF;
    return "rgb(" + std::to_string(red) + "," + std::to_string(green) + "," + std::to_string(blue) + ")";
}

// Zoom on click, "Reset Zoom", and the details line under the graph; the static picture does not
// need it. Each frame group carries data-s (start), data-v (value) and data-d (depth).
constexpr std::string_view FLAME_SCRIPT = R"JS(
(function () {
  var frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));
  var details = document.getElementById('details'), unzoom = document.getElementById('unzoom');
  function num(g, key) { return parseFloat(g.getAttribute('data-' + key)); }
  function fullName(g) { var t = g.querySelector('title').textContent; return t.substring(0, t.lastIndexOf(' (')); }
  function fit(g, x, w) {
    var rect = g.querySelector('rect'), text = g.querySelector('text');
    rect.setAttribute('x', x.toFixed(2)); rect.setAttribute('width', w.toFixed(2));
    text.setAttribute('x', (x + 3).toFixed(2));
    var n = Math.floor((w - 6) / CHAR_PX), name = Array.from(fullName(g));
    text.textContent = n < 3 ? '' : name.length <= n ? name.join('') : name.slice(0, n - 2).join('') + '..';
  }
  function zoom(z) {
    var S = num(z, 's'), V = num(z, 'v'), D = num(z, 'd');
    frames.forEach(function (g) {
      var s = num(g, 's'), v = num(g, 'v'), d = num(g, 'd');
      g.classList.remove('p');
      if (d < D && s <= S && s + v >= S + V) { g.style.display = ''; g.classList.add('p'); fit(g, XPAD, FULL); }
      else if (d >= D && s >= S && s + v <= S + V) {
        g.style.display = ''; fit(g, XPAD + (s - S) * FULL / V, v * FULL / V);
      }
      else g.style.display = 'none';
    });
    unzoom.style.display = '';
  }
  function reset() {
    frames.forEach(function (g) {
      g.style.display = ''; g.classList.remove('p');
      fit(g, XPAD + num(g, 's') * FULL / TOTAL, num(g, 'v') * FULL / TOTAL);
    });
    unzoom.style.display = 'none';
  }
  document.documentElement.addEventListener('click', function (e) {
    var g = e.target.closest ? e.target.closest('g.f') : null;
    if (g) zoom(g); else if (e.target.closest && e.target.closest('#unzoom')) reset();
  });
  document.documentElement.addEventListener('mouseover', function (e) {
    var g = e.target.closest ? e.target.closest('g.f') : null;
    details.textContent = g ? g.querySelector('title').textContent : ' ';
  });
})();
)JS";

}  // namespace

std::string flame_graph_svg(const std::map<std::string, std::uint64_t>& stacks, const std::string& title,
                            const std::string& unit, const FlameGraphOptions& options) {
    std::vector<FlameNode> nodes(1);
    nodes[0].name = "all";
    for (const auto& [stack, weight] : stacks) {
        if (weight == 0) continue;
        std::size_t current = 0;
        nodes[0].total += weight;
        std::string_view rest = stack;
        while (!rest.empty()) {
            std::size_t cut = rest.find(';');
            std::string frame(rest.substr(0, cut));
            rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
            if (frame.empty()) continue;
            auto found = nodes[current].children.find(frame);
            std::size_t child = found != nodes[current].children.end() ? found->second : nodes.size();
            if (child == nodes.size()) {
                nodes[current].children.emplace(frame, child);
                nodes.push_back(FlameNode{frame, 0, {}});  // May reallocate: only indices are kept.
            }
            nodes[child].total += weight;
            current = child;
        }
    }
    const std::uint64_t total = nodes[0].total;
    if (total == 0) return no_data_svg(title);

    const double width = options.width_px, frame_height = options.frame_height_px;
    const double x_pad = 10, top_pad = 50, bottom_pad = 34, full = width - 2 * x_pad;
    const double scale = full / static_cast<double>(total), min_px = width * options.min_width_fraction;

    // Pre-order walk with an explicit stack (call stacks can be thousands deep), children by name.
    std::vector<FlameFrame> frames, pending{{0, 0, 0}};
    int max_depth = 0;
    while (!pending.empty()) {
        FlameFrame frame = pending.back();
        pending.pop_back();
        if (static_cast<double>(nodes[frame.node].total) * scale < min_px) continue;
        frames.push_back(frame);
        max_depth = std::max(max_depth, frame.depth);
        std::vector<FlameFrame> children;
        std::uint64_t start = frame.start;
        for (const auto& [name, child] : nodes[frame.node].children) {
            children.push_back({child, start, frame.depth + 1});
            start += nodes[child].total;
        }
        pending.insert(pending.end(), children.rbegin(), children.rend());
    }

    const double height = top_pad + (max_depth + 1) * frame_height + bottom_pad;
    std::string out = svg_open(width, height);
    out += "<style>\n"
           "g.f { cursor: pointer; }\n"
           "g.f:hover rect { stroke: #000000; stroke-width: 0.5; }\n"
           "g.p rect { fill-opacity: 0.5; }\n"
           "#unzoom { cursor: pointer; }\n"
           "</style>\n"
           "<defs><linearGradient id=\"background\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
           "<stop stop-color=\"#eeeeee\" offset=\"5%\"/><stop stop-color=\"#eeeeb0\" offset=\"95%\"/>"
           "</linearGradient></defs>\n";
    out += "<rect x=\"0\" y=\"0\" width=\"" + number(width, 0) + "\" height=\"" + number(height, 0) +
           "\" fill=\"url(#background)\"/>\n";
    out += "<text x=\"" + number(width / 2) + "\" y=\"24\" font-size=\"17\" text-anchor=\"middle\">" +
           escape(title) + "</text>\n";
    out += "<text id=\"unzoom\" x=\"" + number(x_pad) + "\" y=\"24\" font-size=\"12\" style=\"display:none\">"
           "Reset Zoom</text>\n";
    out += "<text id=\"details\" x=\"" + number(x_pad) + "\" y=\"" + number(height - 12) + "\"> </text>\n";
    out += "<g id=\"frames\">\n";
    for (const FlameFrame& frame : frames) {
        const FlameNode& node = nodes[frame.node];
        double x = x_pad + static_cast<double>(frame.start) * scale;
        double w = static_cast<double>(node.total) * scale;
        double y = height - bottom_pad - (frame.depth + 1) * frame_height;
        double percent = 100.0 * static_cast<double>(node.total) / static_cast<double>(total);
        std::u32string name = decode_utf8(node.name);
        out += "<g class=\"f\" data-s=\"" + std::to_string(frame.start) + "\" data-v=\"" +
               std::to_string(node.total) + "\" data-d=\"" + std::to_string(frame.depth) + "\">";
        out += "<title>" + escape(name) + " (" + grouped(node.total) + " " + escape(unit) + ", " + number(percent) +
               "%)</title>";
        out += "<rect x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" + number(w) + "\" height=\"" +
               number(frame_height - 1) + "\" rx=\"2\" ry=\"2\" fill=\"" + frame_colour(node.name) + "\"/>";
        out += "<text x=\"" + number(x + 3) + "\" y=\"" + number(y + frame_height - 4.5) + "\">" +
               escape(abbreviate(name, w - 6, U"..")) + "</text></g>\n";
    }
    out += "</g>\n<script type=\"text/javascript\"><![CDATA[\nvar XPAD = " + number(x_pad) +
           ", FULL = " + number(full) + ", TOTAL = " + std::to_string(total) + ", CHAR_PX = " + number(CHAR_PX) +
           ";" + std::string(FLAME_SCRIPT) + "]]></script>\n</svg>\n";
    return out;
}

// ---------------------------------------------------------------------------------------------
// Sequence diagram

namespace {

// Maps a time to a y coordinate, piecewise linearly through one anchor per distinct send time.
class TimeAxis {
public:
    // Adds the row at [y] whose send time is [time]; rows come in ascending time order.
    void add_row(double time, double y) {
        if (m_anchors.empty() || m_anchors.back().time != time) m_anchors.push_back({time, y, y});
        m_anchors.back().last_y = y;
    }

    // The y of [time]: the first row of an equal send time, else interpolated between the last row
    // of the send time before and the first row of the one after (clamped at both ends).
    double y_of(double time) const {
        auto after = std::lower_bound(m_anchors.begin(), m_anchors.end(), time,
                                      [](const Anchor& anchor, double t) { return anchor.time < t; });
        if (after == m_anchors.begin()) return m_anchors.front().first_y;
        if (after == m_anchors.end()) return m_anchors.back().last_y;
        if (after->time == time) return after->first_y;
        const Anchor& before = *(after - 1);
        double fraction = (time - before.time) / (after->time - before.time);
        return before.last_y + fraction * (after->first_y - before.last_y);
    }

private:
    struct Anchor {
        double time, first_y, last_y;
    };
    std::vector<Anchor> m_anchors;
};

// Times relative to the first send, in µs (under 10 ms in all), ms (under 10 s) or s.
struct TimeFormat {
    double divisor;
    int decimals;
    std::string unit;

    std::string text(double relative_us) const { return "+" + number(relative_us / divisor, decimals); }
};

// A message label abbreviated to [max_width] with its baseline at [y], starting at [x] or centred
// on it when [centred]; a translucent white backing keeps it legible over crossing arrows. Labels
// keep 12px from lifelines, where arrowheads (9px long) land.
std::string message_label(const std::u32string& label, double x, double y, bool centred, double max_width) {
    std::u32string shown = abbreviate(label, max_width, U"\u2026");
    if (shown.empty()) return {};
    long shown_columns = 0;
    for (char32_t cp : shown) shown_columns += columns(cp);
    double width = static_cast<double>(shown_columns) * CHAR_PX + 4;
    double left = centred ? x - width / 2 : x - 2;
    return "<rect x=\"" + number(left) + "\" y=\"" + number(y - 9) + "\" width=\"" + number(width) +
           "\" height=\"12\" fill=\"#ffffff\" fill-opacity=\"0.8\"/><text x=\"" + number(x) + "\" y=\"" + number(y) +
           (centred ? "\" text-anchor=\"middle\">" : "\">") + escape(shown) + "</text>";
}

// A header box naming a participant, centred on [x] with its top at [y].
std::string lifeline_header(const std::u32string& name, double x, double y, double box_width) {
    return "<g class=\"hdr\"><title>" + escape(name) + "</title><rect x=\"" + number(x - box_width / 2) + "\" y=\"" +
           number(y) + "\" width=\"" + number(box_width) + "\" height=\"22\" rx=\"3\" ry=\"3\" fill=\"#dde6f0\" "
           "stroke=\"#5b7083\"/><text x=\"" + number(x) + "\" y=\"" + number(y + 15) + "\" text-anchor=\"middle\">" +
           escape(abbreviate(name, box_width - 8, U"\u2026")) + "</text></g>\n";
}

}  // namespace

std::string sequence_diagram_svg(const std::vector<SequenceMessage>& messages,
                                 const std::vector<std::string>& participants, const std::string& title,
                                 const SequenceDiagramOptions& options) {
    auto finite = [](double v) { return std::isfinite(v) ? v : 0.0; };
    std::vector<std::size_t> order(messages.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return finite(messages[a].time_us) < finite(messages[b].time_us);
    });

    std::vector<std::string> names;
    std::map<std::string, std::size_t> column;
    auto add_name = [&](const std::string& name) {
        if (column.emplace(name, names.size()).second) names.push_back(name);
    };
    for (const std::string& name : participants) add_name(name);
    for (std::size_t index : order) {
        add_name(messages[index].from);
        add_name(messages[index].to);
    }
    if (names.empty()) return no_data_svg(title);

    std::vector<std::u32string> decoded;
    std::size_t longest = 0;
    for (const std::string& name : names) {
        decoded.push_back(decode_utf8(name));
        longest = std::max(longest, decoded.back().size());
    }
    const double column_width = options.column_width_px > 0
                                    ? options.column_width_px
                                    : std::clamp(static_cast<double>(longest) * CHAR_PX + 28, 130.0, 240.0);
    const double row_height = options.row_height_px, left = 90, right_pad = 20;
    const double header_y = 40, first_row_y = header_y + 22 + row_height;
    const double width = left + column_width * static_cast<double>(names.size()) + right_pad;
    auto lifeline_x = [&](const std::string& name) {
        return left + column_width * (static_cast<double>(column.at(name)) + 0.5);
    };

    double first_time = messages.empty() ? 0 : finite(messages[order.front()].time_us);
    double last_time = messages.empty() ? 0 : finite(messages[order.back()].time_us);
    double last_receive = last_time;
    TimeAxis axis;
    for (std::size_t row = 0; row < order.size(); ++row) {
        axis.add_row(finite(messages[order[row]].time_us), first_row_y + static_cast<double>(row) * row_height);
        double received = messages[order[row]].received_us;
        if (std::isfinite(received) && received >= 0) last_receive = std::max(last_receive, received);
    }
    double bottom_row_y = first_row_y + static_cast<double>(std::max<std::size_t>(order.size(), 1) - 1) * row_height;
    if (last_receive > last_time) axis.add_row(last_receive, bottom_row_y += row_height);  // The tail row.
    const double footer_y = bottom_row_y + row_height, height = footer_y + 22 + 16;

    bool integral = true;
    for (const SequenceMessage& message : messages)
        integral = integral && std::floor(finite(message.time_us)) == finite(message.time_us);
    const double span_us = last_receive - first_time;
    const TimeFormat time_format = span_us >= 1e7   ? TimeFormat{1e6, 3, "s"}
                                   : span_us >= 1e4 ? TimeFormat{1e3, 3, "ms"}
                                                    : TimeFormat{1, integral ? 0 : 1, "\u00b5s"};

    std::string out = svg_open(width, height);
    out += "<style>\n"
           "g.msg:hover .arrow { stroke: #d62020; stroke-width: 2; }\n"
           "g.msg:hover text { fill: #d62020; }\n"
           "</style>\n"
           "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerUnits=\"userSpaceOnUse\" "
           "markerWidth=\"9\" markerHeight=\"9\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333333\"/>"
           "</marker></defs>\n";
    out += "<rect x=\"0\" y=\"0\" width=\"" + number(width, 0) + "\" height=\"" + number(height, 0) +
           "\" fill=\"#ffffff\"/>\n";
    out += "<text x=\"" + number(width / 2) + "\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">" + escape(title) +
           "</text>\n";
    out += "<text x=\"8\" y=\"" + number(header_y + 9) + "\" fill=\"#555555\">time (" + time_format.unit +
           ")</text>\n<text x=\"8\" y=\"" + number(header_y + 21) + "\" fill=\"#555555\" font-size=\"9\">"
           "since first send</text>\n";

    // Lifelines, dashed, under headers repeated at the top and the bottom.
    const double box_width = column_width - 14;
    for (std::size_t i = 0; i < names.size(); ++i) {
        double x = lifeline_x(names[i]);
        out += "<line class=\"lifeline\" x1=\"" + number(x) + "\" y1=\"" + number(header_y + 22) + "\" x2=\"" +
               number(x) + "\" y2=\"" + number(footer_y) + "\" stroke=\"#9aa5b1\" stroke-dasharray=\"4 4\"/>\n";
        out += lifeline_header(decoded[i], x, header_y, box_width);
        out += lifeline_header(decoded[i], x, footer_y, box_width);
    }

    // A row per message: the send time on the left, a light guide line, then the arrow and label.
    for (std::size_t row = 0; row < order.size(); ++row) {
        const SequenceMessage& message = messages[order[row]];
        double y = first_row_y + static_cast<double>(row) * row_height;
        double sent = finite(message.time_us), x_from = lifeline_x(message.from), x_to = lifeline_x(message.to);
        bool received_known = std::isfinite(message.received_us) && message.received_us >= 0;
        double y_end = received_known ? std::max(y, axis.y_of(message.received_us)) : y;
        std::u32string label = decode_utf8(message.label);

        out += "<text x=\"" + number(left - 8) + "\" y=\"" + number(y + 4) +
               "\" text-anchor=\"end\" fill=\"#555555\">" + time_format.text(sent - first_time) + "</text>";
        out += "<line x1=\"" + number(left - 4) + "\" y1=\"" + number(y) + "\" x2=\"" + number(width - right_pad) +
               "\" y2=\"" + number(y) + "\" stroke=\"#f0f0f0\"/>\n";
        std::string received = received_known
                                   ? ", received " + time_format.text(message.received_us - first_time) + " " +
                                         time_format.unit
                                   : ", receive time unknown";
        out += "<g class=\"msg\"><title>" + escape(label) + "&#10;" + escape(message.from) + " \u2192 " +
               escape(message.to) + "&#10;sent " + time_format.text(sent - first_time) + " " + time_format.unit +
               received + "</title>";
        const std::string arrow_style =
            "\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1.2\" marker-end=\"url(#head)\"/>";
        if (message.from == message.to) {
            // A loop out to the right of the lifeline and back, at least half a row tall.
            double loop_end = std::max(y_end, y + row_height / 2);
            out += "<path class=\"arrow\" d=\"M" + number(x_from) + "," + number(y) + " H" + number(x_from + 28) +
                   " V" + number(loop_end) + " H" + number(x_from + 1) + arrow_style;
            out += message_label(label, x_from + 12, y - 4, false, column_width - 20);
        } else {
            double direction = x_to > x_from ? 1 : -1;
            out += "<line class=\"arrow\" x1=\"" + number(x_from) + "\" y1=\"" + number(y) + "\" x2=\"" +
                   number(x_to - direction) + "\" y2=\"" + number(y_end) + arrow_style;
            out += message_label(label, (x_from + x_to) / 2, y - 4, true, std::abs(x_to - x_from) - 24);
        }
        out += "</g>\n";
    }
    if (messages.empty())
        out += "<text x=\"" + number(width / 2) + "\" y=\"" + number(first_row_y) +
               "\" text-anchor=\"middle\" fill=\"#777777\">no data</text>\n";
    out += "</svg>\n";
    return out;
}

}  // namespace beamlet::tools
