import TestSupport
import Testing

@testable import PhotoFilerDaemon
@testable import PhotoFilerFiling
@testable import PhotoFilerSystem
@testable import PhotoFilerWatching

@Suite struct SyncEngineTests {
    @Test func markersNameTheEngine() throws {
        let folder = try TemporaryFolder()
        #expect(try SyncEngine.owning(folder.path) == nil)
        try writeFile(folder.file("IMG_0001.jpg"))
        try writeFile(folder.file(".sync.db"))  // not a journal name
        #expect(try SyncEngine.owning(folder.path) == nil)
        try writeFile(folder.file(".sync_5f3e2a1b9c0d.db"))
        #expect(try SyncEngine.owning(folder.path) == .nextcloud)
        try Sys.makeDirectory(folder.file(".stfolder"))
        #expect(try SyncEngine.owning(folder.path) == .syncthing)
    }

    /// An engine marks only the root of what it syncs: an inbox below it is synced too.
    @Test func aMarkerInAFolderAboveCounts() throws {
        let folder = try TemporaryFolder()
        let inbox = folder.file("InstantUpload").appending("Camera")
        try Sys.makeDirectories(inbox)
        #expect(try SyncEngine.owning(inbox) == nil)
        try writeFile(folder.file(".sync_5f3e2a1b9c0d.db"))
        #expect(try SyncEngine.owning(inbox) == .nextcloud)
        try Sys.makeDirectory(folder.file("InstantUpload").appending(".stfolder"))
        #expect(try SyncEngine.owning(inbox) == .syncthing, "the nearest marker")
    }

    @Test func ownCloudsOlderJournalNameCounts() throws {
        let folder = try TemporaryFolder()
        try writeFile(folder.file("._sync_a1b2c3.db"))
        #expect(try SyncEngine.owning(folder.path) == .nextcloud)
    }

    @Test(arguments: [
        ".syncthing.IMG_0001.jpg.tmp", "~syncthing~IMG_0001.jpg.tmp", ".IMG_0001.jpg.~4a1f",
        "IMG_0001.jpg.~4a1f",
    ])
    func engineTemporaryNamesAreTemporary(_ name: String) {
        #expect(TemporaryName.matches(BytePath("/inbox/" + name)))
    }

    @Test func hiddenFoldersBelowTheInboxRoot() {
        let root = BytePath("/home/me/.sync/Camera")
        #expect(
            TemporaryName.isInHiddenFolder(BytePath("/home/me/.sync/Camera/.stversions/a.jpg"), below: root))
        #expect(
            TemporaryName.isInHiddenFolder(BytePath("/home/me/.sync/Camera/2023/.trash/a.jpg"), below: root))
        // The root itself may be hidden; only folders below it count.
        #expect(!TemporaryName.isInHiddenFolder(BytePath("/home/me/.sync/Camera/2023/a.jpg"), below: root))
        #expect(!TemporaryName.isInHiddenFolder(BytePath("/home/me/.sync/Camera/a.jpg"), below: root))
        // A hidden name is `matches`'s question, not this one's; a root's spelling does not matter.
        #expect(!TemporaryName.isInHiddenFolder(BytePath("/home/me/.sync/Camera/2023/.a.jpg"), below: root))
        #expect(
            TemporaryName.isInHiddenFolder(
                BytePath("/home/me/.sync/Camera//.stversions/a.jpg"), below: "/home/me//.sync/Camera/"))
    }
}

@Suite struct SyncedKeepTests {
    @Test func aSyncedInboxKeepsUnlessItsConfigSaysFalse() throws {
        var inbox = InboxConfiguration(name: try AlbumName(validating: "Phone"), path: "/sync/Camera")
        #expect(Configuration().effectiveKeep(for: inbox, syncedBy: .syncthing))
        #expect(!Configuration().effectiveKeep(for: inbox, syncedBy: nil))
        inbox.keep = false
        #expect(!Configuration().effectiveKeep(for: inbox, syncedBy: .nextcloud))
        #expect(Configuration(keep: true).effectiveKeep(for: inbox, syncedBy: nil), "--keep wins")
    }
}
