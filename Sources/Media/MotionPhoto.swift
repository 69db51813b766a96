/// The video a motion photo appends after its JPEG, as its XMP announces it:
/// Google's older `GCamera:MicroVideoOffset` (bytes from the end of the file to
/// the video) or the Container directory's `Item:Length` of the `MotionPhoto` item.
///
/// Read as text from the file's first bytes (XMP sits in an APP1 segment near the
/// start) rather than through exiv2, which would need the Google namespaces
/// registered and runs only after the completeness check.
package enum MotionPhoto {
    package static func videoLength(xmpIn head: [UInt8]) -> Int64? {
        if let offset = number(after: "MicroVideoOffset=\"", in: head[...])
            ?? number(after: "MicroVideoOffset>", in: head[...]), offset > 0
        {
            return offset
        }
        // <Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="123" .../>
        guard let semantic = head.firstRange(of: Array("Semantic=\"MotionPhoto\"".utf8)) else { return nil }
        let elementStart = head[..<semantic.lowerBound].lastIndex(of: UInt8(ascii: "<")) ?? 0
        let elementEnd = head[semantic.upperBound...].firstIndex(of: UInt8(ascii: ">")) ?? head.endIndex
        let length = number(after: "Length=\"", in: head[elementStart..<elementEnd])
        return length.flatMap { $0 > 0 ? $0 : nil }
    }

    private static func number(after key: String, in bytes: ArraySlice<UInt8>) -> Int64? {
        guard let range = bytes.firstRange(of: Array(key.utf8)) else { return nil }
        let digits = bytes[range.upperBound...].prefix { (0x30...0x39).contains($0) }
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        return Int64(String(decoding: digits, as: UTF8.self))
    }
}
