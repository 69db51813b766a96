import PhotoFilerSystem

/// The file names of `Tests/Fixtures/phones/MANIFEST.tsv` (tab-separated, a header
/// line first, the name in the first column).
public enum PhonesManifest {
    public static let files: [String] = ManifestTable(Fixtures.phones("MANIFEST.tsv")).rows.map { $0[0] }
}
