import TestSupport
import Testing

@testable import PhotoFilerSystem

/// The corpus travels with the repository: a clone with nothing beside it runs every test.
struct FixtureTests {
    @Test func corpusLivesInTheRepository() throws {
        #expect(Fixtures.corpus.display.hasSuffix("/Tests/Fixtures/corpus"))
        #expect(CorpusManifest.good.count >= 16)
        #expect(CorpusManifest.bad.count >= 4)
        for file in ["README.md", "LICENSES"] {
            #expect(try Sys.statusIfExists(Fixtures.corpus(file)) != nil, "\(file) travels with the files")
        }
    }

    @Test(arguments: CorpusManifest.entries)
    func everyManifestRowIsAFileOfItsSize(entry: CorpusManifest.Entry) throws {
        #expect(try Sys.status(entry.path).size == entry.bytes)
    }

    /// Every picture of the phones folder has its MANIFEST row (what it models, origin,
    /// licence), and every row its file: the differential test reads the MANIFEST.
    @Test func everyPhoneFixtureIsInItsManifest() throws {
        let tools: Set<String> = ["MANIFEST.tsv", "README.md", "make.sh"]
        let pictures = regularFiles(under: Fixtures.phones).map(\.lastComponent.display).filter { name in
            !tools.contains(name) && !name.hasSuffix(".c") && !name.hasSuffix(".py")
                && !name.hasSuffix("_LICENSE.txt")
        }
        #expect(Set(pictures) == Set(PhonesManifest.files))
        #expect(PhonesManifest.files.count == Set(PhonesManifest.files).count)
    }
}
