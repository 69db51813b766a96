"""Writes an Ultra HDR JPEG as Pixel phones do: the primary JPEG carrying an XMP APP1
(hdrgm:Version, a GContainer directory naming a GainMap item of the gain map's
length) followed, after its EOI, by the gain map, a second JPEG with its own hdrgm
XMP. (Pixels also write an MPF APP2 index; readers find the gain map through either.)
    make_ultra_hdr.py PRIMARY.jpg GAINMAP.jpg OUT.jpg
"""
import struct
import sys

XMP_HEADER = b"http://ns.adobe.com/xap/1.0/\x00"


def with_xmp(jpeg, xmp):
    """`jpeg` with an APP1 XMP segment right after its SOI."""
    assert jpeg[:2] == b"\xff\xd8"
    payload = XMP_HEADER + xmp.encode()
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


primary, gainmap = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
gainmap = with_xmp(
    gainmap,
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    '<rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0"'
    ' hdrgm:GainMapMin="0" hdrgm:GainMapMax="2" hdrgm:Gamma="1" hdrgm:OffsetSDR="0.015625"'
    ' hdrgm:OffsetHDR="0.015625" hdrgm:HDRCapacityMin="0" hdrgm:HDRCapacityMax="2"'
    ' hdrgm:BaseRenditionIsHDR="False"/></rdf:RDF></x:xmpmeta>',
)
primary = with_xmp(
    primary,
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    '<rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/"'
    ' xmlns:Container="http://ns.google.com/photos/1.0/container/"'
    ' xmlns:Item="http://ns.google.com/photos/1.0/container/item/" hdrgm:Version="1.0">'
    "<Container:Directory><rdf:Seq>"
    '<rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li>'
    '<rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg"'
    f' Item:Length="{len(gainmap)}"/></rdf:li>'
    "</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>",
)
open(sys.argv[3], "wb").write(primary + gainmap)
