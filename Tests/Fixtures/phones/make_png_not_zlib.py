"""Rewrites a PNG so that its pixel data is no zlib stream while every chunk is whole
and its CRC right: the IDAT chunks become one of the same total length holding a
counting pattern (a zlib reader stops at its first two bytes, "incorrect header check").
    make_png_not_zlib.py IN.png OUT.png
"""
import struct
import sys
import zlib

source = open(sys.argv[1], "rb").read()
out = bytearray(source[:8])
offset, written = 8, False
while offset < len(source):
    (length,) = struct.unpack(">I", source[offset : offset + 4])
    kind = source[offset + 4 : offset + 8]
    data = source[offset + 8 : offset + 8 + length]
    offset += 12 + length
    if kind == b"IDAT":
        if written:
            continue
        total, scan = 0, 8
        while scan < len(source):
            (size,) = struct.unpack(">I", source[scan : scan + 4])
            if source[scan + 4 : scan + 8] == b"IDAT":
                total += size
            scan += 12 + size
        data = bytes((index * 7 + 3) & 0xFF for index in range(total))
        written = True
    out += struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
open(sys.argv[2], "wb").write(bytes(out))
