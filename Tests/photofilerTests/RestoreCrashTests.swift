import PhotoFilerSystem
import TestSupport
import Testing

/// A plain asset brought back from Recently Deleted, by `restore` or by its bytes
/// saved again, cut by a crash at any mutating call, then recovered as a user
/// would (`check --repair`, and the same command again): the asset is back once, in
/// every album it was in and the one it was saved to, with one roll file and nothing
/// left in Recently Deleted.
@Suite struct RestoreCrashTests {
    static let bytes = Pictures.uniqueJPEG(61, tag: "restored")

    @Test(arguments: ["before", "after"])
    func crashWhileRestoreBringsAnAssetBack(moment: String) throws {
        try CrashPoints.cutEveryCall(
            "restore", moment: moment, minimumCalls: 4,
            scenario: { crashAt in
                let (library, id) = try Self.libraryWithADeletedAsset()
                let run = try library.run("restore", "\(id)", environment: ["PHOTOFILER_CRASH_AT": crashAt])
                return (library, id, run)
            },
            recover: { context, library, id in
                let repair = try library.run("check", "--repair")
                #expect(repair.status == 0, "\(context): \(repair.stdout)\(repair.stderr)")
                if try library.list().isEmpty {
                    let again = try library.run("restore", "\(id)")
                    #expect(again.status == 0, "\(context), the restore again: \(again.stderr)")
                }
                try Self.expectBack(id, in: library, albums: ["QQ"], context: context)
            })
    }

    @Test(arguments: ["before", "after"])
    func crashWhileItsBytesSavedAgainBringAnAssetBack(moment: String) throws {
        try CrashPoints.cutEveryCall(
            "bytes saved again", moment: moment, minimumCalls: 4,
            scenario: { crashAt in
                let (library, id) = try Self.libraryWithADeletedAsset()
                let copy = try library.input(bytes: Self.bytes, name: "again.jpg")
                let run = try library.run(
                    "save", "--album", "WeChat", "--move", copy.display,
                    environment: ["PHOTOFILER_CRASH_AT": crashAt])
                return (library, (id, copy), run)
            },
            recover: { context, library, scene in
                let repair = try library.run("check", "--repair")
                #expect(repair.status == 0, "\(context): \(repair.stdout)\(repair.stderr)")
                if (try Sys.statusIfExists(scene.1)) != nil {
                    let again = try library.run("save", "--album", "WeChat", "--move", scene.1.display)
                    #expect(again.status == 0, "\(context), the save again: \(again.stderr)")
                }
                try Self.expectBack(scene.0, in: library, albums: ["QQ", "WeChat"], context: context)
            })
    }

    /// A fresh library whose one asset, in QQ, was deleted with `rm`; and its id.
    static func libraryWithADeletedAsset() throws -> (TestLibrary, Int64) {
        let library = try TestLibrary()
        let id = try library.save([try library.input(bytes: bytes, name: "IMG_0061.JPG")], album: "QQ")[0]
        #expect(try library.run("rm", "\(id)").status == 0)
        return (library, id)
    }

    static func expectBack(_ id: Int64, in library: TestLibrary, albums: Set<String>, context: String) throws
    {
        let listed = try library.list()
        #expect(listed.count == 1 && assetID(listed[0]) == id, "\(context): \(listed)")
        #expect(Set(listed.first?["albums"] as? [String] ?? []) == albums, "\(context)")
        let rollFiles = try library.rollFiles()
        #expect(try rollFiles.map { try readFile($0) } == [bytes], "\(context): \(rollFiles.map(\.display))")
        for album in albums {
            #expect(try library.entries(ofAlbum: album).count == 1, "\(context): \(album)")
        }
        let trash = LibraryContents.files(below: library.root.appending("Recently Deleted"))
        #expect(trash.isEmpty, "\(context): \(trash.map(\.display))")
        let check = try library.run("check")
        #expect(check.status == 0, "\(context): \(check.stdout)")
    }
}
