import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerSystem

/// The connection's statement cache hashes a statement's length and its ends:
/// statements alike there are still told apart by all of their bytes.
@Suite struct StatementCacheTests {
    /// A connection to a scratch catalog file, removed afterwards.
    private func withScratchConnection(_ body: (SQLiteConnection) throws -> Void) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try body(try SQLiteConnection(path: folder.file("cache.sqlite")))
    }

    @Test func statementsAlikeAtBothEndsAreTwoStatements() throws {
        try withScratchConnection { (connection) throws in
            let padding = String(repeating: " ", count: 40)
            let first = "SELECT" + padding + "'first'" + padding + ", 1"
            let second = "SELECT" + padding + "'other'" + padding + ", 1"
            #expect(first.utf8.count == second.utf8.count)
            for _ in 0..<3 {
                #expect(try connection.queryFirst(first) { $0.text(0) } == "first")
                #expect(try connection.queryFirst(second) { $0.text(0) } == "other")
            }
        }
    }

    /// A statement used again while it runs (a nested query of the same SQL) gets
    /// a copy of its own, and the cached one still answers afterwards.
    @Test func aNestedUseOfTheSameStatementGetsItsOwnCopy() throws {
        try withScratchConnection { (connection) throws in
            let sql = "SELECT ?1 + 1"
            let nested = try connection.queryFirst(sql, [.integer(1)]) { outer throws(CatalogError) in
                let inner = try connection.queryFirst(sql, [.integer(10)]) { $0.int(0) }
                return [outer.int(0), inner ?? -1]
            }
            #expect(nested == [2, 11])
            #expect(try connection.queryFirst(sql, [.integer(5)]) { $0.int(0) } == 6)
        }
    }
}
