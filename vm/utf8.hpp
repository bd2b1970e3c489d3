// vm/utf8.hpp — UTF-8 encoding and decoding, shared by the runtime (atom texts in the external
// term format) and the BIFs (unicode, re, file names, atom conversions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace beamlet::vm {

// Decodes one UTF-8 character at [p] (n bytes left): its length, 0 if invalid, -1 if the
// bytes are a valid but unfinished start of one.
inline int utf8_decode(const std::uint8_t* p, std::size_t n, std::uint32_t* out) {
    std::uint8_t b = p[0];
    int len;
    std::uint32_t c;
    if (b < 0x80) {
        *out = b;
        return 1;
    } else if (b >= 0xC2 && b <= 0xDF) {
        len = 2;
        c = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
        len = 3;
        c = b & 0x0F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        len = 4;
        c = b & 0x07;
    } else {
        return 0;
    }
    for (int i = 1; i < len; ++i) {
        if (std::size_t(i) >= n) {
            // Unfinished: valid so far? (the second byte's range rules out overlong forms)
            return -1;
        }
        if ((p[i] & 0xC0) != 0x80) return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10FFFF)) || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *out = c;
    return len;
}

// Well-formed UTF-8: shortest forms, no surrogates, at most U+10FFFF, nothing cut short.
inline bool utf8_valid(const std::uint8_t* s, std::size_t n) {
    std::uint32_t c;
    for (std::size_t i = 0; i < n;) {
        int len = utf8_decode(s + i, n - i, &c);
        if (len <= 0) return false;
        i += std::size_t(len);
    }
    return true;
}

// Appends code point [c] to [out].
inline void put_utf8(std::uint32_t c, std::string& out) {
    if (c < 0x80) {
        out.push_back(char(c));
    } else if (c < 0x800) {
        out.push_back(char(0xC0 | (c >> 6)));
        out.push_back(char(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(char(0xE0 | (c >> 12)));
        out.push_back(char(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(char(0x80 | (c & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (c >> 18)));
        out.push_back(char(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(char(0x80 | (c & 0x3F)));
    }
}

}  // namespace beamlet::vm
