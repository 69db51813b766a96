import PhotoFilerSystem

/// A fixture folder's `MANIFEST.tsv`: tab-separated, a header line of column names
/// first, one row a file. A manifest that is missing or lacks a column stops the
/// tests that read it (a missing fixture is a failure, never a skip).
public struct ManifestTable {
    public let path: BytePath
    public let header: [String]
    public let rows: [[String]]

    public init(_ path: BytePath) {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path)
        } catch {
            fatalError(
                "A fixture manifest is missing: \(error). It belongs at '\(path.display)' in the repository.")
        }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        self.path = path
        header = lines.removeFirst()
        rows = lines
    }

    /// The index of the column `name`.
    public func column(_ name: String) -> Int {
        guard let index = header.firstIndex(of: name) else {
            fatalError("'\(path.display)' has no column '\(name)'.")
        }
        return index
    }
}
