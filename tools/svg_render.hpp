// tools/svg_render.hpp — self-contained SVG pictures of a trace: a flame graph and a sequence diagram.
//
// Both renderers depend only on the standard library and are deterministic: the same input gives
// byte-identical output (no randomness, no clock, no locale), so tests compare against expected
// files. The SVGs are well-formed XML with all text escaped (invalid UTF-8 becomes U+FFFD); they
// carry a little inline CSS and JavaScript (zoom, hover) and still read as static pictures in
// viewers that ignore scripts.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace beamlet::tools {

// Layout knobs of flame_graph_svg(); the defaults are Brendan Gregg's flamegraph.pl sizes.
struct FlameGraphOptions {
    // Total picture width in pixels.
    double width_px = 1200;
    // Height of one stack level in pixels.
    double frame_height_px = 16;
    // Frames narrower than this fraction of the graph's width are omitted (with their children).
    double min_width_fraction = 0.001;
};

// A flame graph of [stacks]: each key is a call stack, frames outermost first, separated by ';'
// (Brendan Gregg's folded format, e.g. "main:main/0;ring:hop/1;lists:seq/2"), each value its weight
// (self time in microseconds, or a count). [title] is shown on top; [unit] names the weights ("us").
// The root frame "all" is at the bottom; siblings are sorted by name, as flamegraph.pl does. Each
// frame has a <title> "name (value unit, p%)"; clicking a frame zooms to it (with a script).
std::string flame_graph_svg(const std::map<std::string, std::uint64_t>& stacks, const std::string& title,
                            const std::string& unit, const FlameGraphOptions& options = {});

// One message of a sequence diagram: at [time_us], [from] sent [label] to [to]; [received_us] is when
// it was received (or -1 if unknown / never). Lifelines are named by the strings in from/to.
struct SequenceMessage {
    double time_us;
    double received_us;
    std::string from, to, label;
};

// Layout knobs of sequence_diagram_svg().
struct SequenceDiagramOptions {
    // Vertical distance between two consecutive sends, in pixels (the minimum arrow spacing).
    double row_height_px = 24;
    // Distance between two lifelines in pixels; 0 sizes it from the longest participant name.
    double column_width_px = 0;
};

// A sequence diagram (as OTP's et_viewer draws one): a lifeline per participant, in order of first
// appearance (or the order given in [participants] when non-empty; names found only in messages
// follow it), time going down, an arrow per message (slanted from send time to receive time when
// both are known), labels abbreviated to fit with the full text in a <title> tooltip. [title] on top.
//
// The vertical axis is a row per message in order of send time (ties keep input order), so labels
// never overlap however close the sends are; the left column prints each row's send time relative
// to the first one. Between rows, time maps linearly, so a receive lands between the rows of the
// sends before and after it; receives after the last send get one extra row at the bottom.
// Self-messages are drawn as loops to the right of the lifeline.
std::string sequence_diagram_svg(const std::vector<SequenceMessage>& messages,
                                 const std::vector<std::string>& participants, const std::string& title,
                                 const SequenceDiagramOptions& options = {});

}  // namespace beamlet::tools
