import PhotoFilerSystem

/// The files tests read that live in the repository, under `Tests/Fixtures/`, found
/// from this file's own path: a clone with nothing beside it has all it needs.
///
/// The one locator for both test targets. A fixture that is missing makes the test
/// that reads it fail (the read throws); no test is skipped for it.
public enum Fixtures {
    /// `Tests/Fixtures`.
    public static let root: BytePath = BytePath(#filePath).parent.parent.appending("Fixtures")

    /// Real camera, phone and screenshot files, each described in `MANIFEST.tsv`, with
    /// their licences in `LICENSES/` (see its README.md).
    public static let corpus: BytePath = root.appending("corpus")

    /// One corpus file by its MANIFEST name (`bad/x.jpg` for the broken ones).
    public static func corpus(_ file: String) -> BytePath { corpus.appending(file) }

    /// Still images in the shapes today's phones write (HEIF grids with each transform,
    /// 10-bit HEIC and AVIF, multi-page TIFF...), made by `make.sh` there or taken from
    /// Debian and PyPI packages: see its README.md and MANIFEST.tsv.
    public static let phones: BytePath = root.appending("phones")

    /// One file of `phones` by its MANIFEST name.
    public static func phones(_ file: String) -> BytePath { phones.appending(file) }
}
