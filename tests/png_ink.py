#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""png_ink.py PNG [RRGGBB...] - what a screenshot holds, from the PNG itself
(zlib and struct only): width, height, the pixels that are not the
background (the colour of the top-left pixel), the last row holding any,
and for each colour given the pixels of exactly that colour. One line:
"W H INK LASTROW [COUNT...]"."""
import struct
import sys
import zlib


def rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG" % path)
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit("%s: want 8-bit RGB(A), not interlaced" % path)
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, out = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line))
        prev = line
    return w, h, bpp, out


def main():
    w, h, bpp, img = rows(sys.argv[1])
    want = [bytes.fromhex(c) for c in sys.argv[2:]]
    bg = img[0][:3]
    ink, last, counts = 0, -1, [0] * len(want)
    for y, line in enumerate(img):
        px = [line[i:i + 3] for i in range(0, len(line), bpp)]
        n = sum(1 for p in px if p != bg)
        if n:
            last = y
        ink += n
        for k, c in enumerate(want):
            counts[k] += px.count(c)
    print(w, h, ink, last, *counts)


main()
