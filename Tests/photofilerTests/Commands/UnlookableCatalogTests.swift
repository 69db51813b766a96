import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// A catalog that cannot be looked at (a failing disk, injected on `stat`) is not a
/// missing one: no command says it was rebuilt, and nothing of it is started afresh.
@Suite
struct UnlookableCatalogTests {
    @Test func aCatalogThatCannotBeLookedAtIsNotMissing() throws {
        let library = try CheckCommandTests.library()
        let failing = ["PHOTOFILER_FAIL_PATH": "stat:EIO:catalog.sqlite"]
        let list = try library.run("list", "--json", environment: failing)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(!list.stderr.contains("was missing"), "\(list.stderr)")
        #expect(!list.stderr.contains("rebuilt"), "\(list.stderr)")
        #expect(try library.list().count == 3)
    }
}
