import TestSupport
import Testing

private struct Abort: Error {}

@Suite struct CatalogTransactionTests {
    @Test func commitsTogetherAndRollsBackOnAThrow() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let id = try catalog.transaction {
            let id = try catalog.insertAsset(sampleAsset(1))
            _ = try catalog.createAlbum(name: "QQ", folderName: "QQ", at: 0)
            return id
        }
        #expect(try catalog.asset(id: id) != nil)

        #expect(throws: Abort.self) {
            try catalog.transaction {
                _ = try catalog.insertAsset(sampleAsset(2))
                try catalog.transaction {  // nested: part of the outer one
                    _ = try catalog.createAlbum(name: "WeChat", folderName: "WeChat", at: 0)
                }
                throw Abort()
            }
        }
        #expect(try catalog.allAssets().count == 1)
        #expect(try catalog.album(named: "WeChat") == nil)

        // The catalog is usable afterwards: no transaction was left open.
        _ = try catalog.transaction { try catalog.insertAsset(sampleAsset(3)) }
        #expect(try catalog.allAssets().count == 2)
    }

    @Test func aSecondConnectionSeesCommittedWork() throws {
        let folder = try TemporaryFolder()
        let writer = try folder.catalog()
        let reader = try folder.catalog()
        let id = try writer.insertAsset(sampleAsset(1))
        #expect(try reader.asset(id: id)?.hash == sampleAsset(1).hash)
    }
}
