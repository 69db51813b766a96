import PhotoFilerSystem

/// The end scans one hash pass runs. The daemon hashes a file while a helper reads
/// its type, so the type is often not known when the first bytes go by: then the
/// JPEG, PNG and GIF scans run side by side (each stops at its format's end or as
/// soon as the bytes break its structure) and the type's own is chosen afterwards.
package struct EndMarkerScans {
    /// The formats whose end is a marker inside the file.
    private static let markedTypes = ["image/jpeg", "image/png", "image/gif"]

    private var scans: [EndMarkerScan]

    /// The scan of `mimeType`'s format; none when its end is not a marker.
    package init(mimeType: String) {
        scans = EndMarkerScan(mimeType: mimeType).map { [$0] } ?? []
    }

    private init(scans: [EndMarkerScan]) {
        self.scans = scans
    }

    /// Every format's scan, for bytes whose type is not known yet.
    package static var anyType: EndMarkerScans {
        EndMarkerScans(scans: markedTypes.compactMap(EndMarkerScan.init(mimeType:)))
    }

    /// No scan: only the hash.
    package static var none: EndMarkerScans { EndMarkerScans(scans: []) }

    /// The next bytes of the file, in order.
    package mutating func consume(_ chunk: UnsafeRawBufferPointer) {
        for index in scans.indices { scans[index].consume(chunk) }
    }

    /// Refuses a file of type `mimeType` whose end never came: it was cut. A type
    /// without an end marker always passes.
    package func verify(mimeType: String, path: BytePath) throws(MediaError) {
        try scans.first { $0.mimeType == mimeType }?.verify(path: path)
    }
}
