import PhotoFilerSystem

/// The file names of `Tests/Fixtures/phones/MANIFEST.tsv` (tab-separated, a header
/// line first, the name in the first column).
public enum PhonesManifest {
    public static let files: [String] = {
        let manifest = Fixtures.phones("MANIFEST.tsv")
        let bytes: [UInt8]
        do {
            bytes = try readFile(manifest)
        } catch {
            fatalError("The phone fixtures' manifest is missing: \(error) ('\(manifest.display)').")
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst()
        return lines.map { String($0.prefix { $0 != "\t" }) }
    }()
}
