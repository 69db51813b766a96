import TestSupport
import Testing

@testable import PhotoFilerCatalog

/// SQLite's process-wide settings take effect with the first catalog connection.
@Suite struct SQLiteProcessSettingsTests {
    /// No count of SQLite's memory, whose global mutex every allocation took (the
    /// daemon took 169 mutex locks a file in a 10,000-file burst, 17 without).
    @Test func sqliteCountsNoMemoryOnceACatalogIsOpen() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let connection = try SQLiteConnection(path: folder.file("settings.sqlite"))
        try connection.execute("CREATE TABLE rows (value TEXT)")
        for index in 0..<100 {
            try connection.execute("INSERT INTO rows VALUES ('\(String(repeating: "x", count: index))')")
        }
        #expect(try connection.queryFirst("SELECT count(*) FROM rows") { $0.int(0) } == 100)
        #expect(!SQLiteConnection.countsMemory)
    }
}
