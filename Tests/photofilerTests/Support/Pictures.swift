import PhotoFilerCore
import TestSupport

/// Small real pictures for end-to-end tests, each with bytes of its own.
enum Pictures {
    /// A real 5.8 KB JPEG (`examples/pictures/sunset.jpg`).
    static let sampleJPEG: [UInt8] = {
        let path = Binary.packageRoot.appending("examples/pictures/sunset.jpg")
        guard let bytes = try? readFile(path), bytes.starts(with: [0xFF, 0xD8]) else {
            fatalError("The sample picture '\(path.display)' is missing or not a JPEG.")
        }
        return bytes
    }()

    /// A valid JPEG whose bytes are unique to `index` and `tag`: the sample picture
    /// with a comment (COM) segment saying so right after its start marker. Its end
    /// marker stays last, as the completeness check wants, and it takes microseconds
    /// to make, so thousands of distinct assets cost nothing.
    static func uniqueJPEG(_ index: Int, tag: String = "") -> [UInt8] {
        let text = Array("photofiler test picture \(tag)#\(index)".utf8)
        let length = text.count + 2
        return [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text
            + sampleJPEG[2...]
    }

    /// SHA-256 in lowercase hex: the asset's identity as `list --json` shows it.
    static func sha256(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { ContentHasher.hash($0) }
    }
}
