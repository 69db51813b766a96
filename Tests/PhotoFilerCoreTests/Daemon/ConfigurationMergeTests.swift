import PhotoFilerSystem
import Testing

@testable import PhotoFilerDaemon
@testable import PhotoFilerFiling

@Suite struct ConfigurationMergeTests {
    let environment = ["HOME": "/home/ann"]

    func name(_ text: String) -> AlbumName { try! AlbumName(validating: text) }

    @Test func inboxFlagSplitsAtTheFirstEquals() throws {
        let inbox = try InboxConfiguration.parse(
            flag: "QQ=~/Downloads/a=b", environment: environment, workingDirectory: "/work")
        #expect(inbox.name == name("QQ"))
        #expect(inbox.path == "/home/ann/Downloads/a=b")
        #expect(inbox.keep == nil && inbox.link == nil)
        let relative = try InboxConfiguration.parse(
            flag: "Weibo=examples/inboxes/Weibo/", environment: environment, workingDirectory: "/work")
        #expect(relative.path == "/work/examples/inboxes/Weibo")
    }

    @Test(arguments: [
        ("QQ", "no '='"),
        ("QQ=", "names no folder"),
        ("=/x", "empty"),
        ("..=/x", "other than '.' or '..'"),
        ("a/b=/x", "contains '/'"),
    ])
    func badInboxFlags(value: String, phrase: String) {
        do {
            _ = try InboxConfiguration.parse(
                flag: BytePath(value), environment: environment, workingDirectory: "/w")
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.description.contains(phrase), "\(error)")
            #expect(error.description.contains("--inbox \(value)"))
            #expect(error.line == nil)
        }
    }

    @Test func flagsOverrideTheFileAndInboxesAdd() throws {
        let file = Configuration(
            libraryPath: "/file/lib", link: .hard, settleMilliseconds: 300, rescanMinutes: 60,
            inboxes: [
                InboxConfiguration(name: name("QQ"), path: "/q", keep: false, link: .hard),
                InboxConfiguration(name: name("WeChat"), path: "/w", keep: true),
            ], configFile: "/c.conf")
        let flags = Configuration(
            libraryPath: "/flag/lib", link: .symbolic, settleMilliseconds: 0, keep: true,
            inboxes: [
                InboxConfiguration(name: name("Weibo"), path: "/b"),
                InboxConfiguration(name: name("QQ"), path: "/q"),  // repeats the file's: dropped
            ])
        let merged = try file.merging(flags: flags)
        #expect(merged.libraryPath == "/flag/lib")
        #expect(merged.settleMilliseconds == 0)
        #expect(merged.rescanMinutes == 60)
        #expect(merged.configFile == "/c.conf")
        #expect(merged.inboxes.map(\.name.value) == ["QQ", "WeChat", "Weibo"])
        for inbox in merged.inboxes {
            #expect(merged.effectiveLink(for: inbox) == .symbolic)
            #expect(merged.effectiveKeep(for: inbox) == true)
        }
    }

    @Test func noFlagsKeepsTheFile() throws {
        let file = Configuration(
            link: .symbolic,
            inboxes: [InboxConfiguration(name: name("QQ"), path: "/q", keep: true, link: .hard)])
        let merged = try file.merging(flags: Configuration())
        #expect(merged == file)
        #expect(merged.effectiveLink(for: merged.inboxes[0]) == .hard)
        #expect(merged.effectiveSettleMilliseconds == 300)
        #expect(merged.effectiveRescanMinutes == 60)
    }

    @Test func aFolderGivenToTwoAlbumsIsRefused() {
        let file = Configuration(inboxes: [
            InboxConfiguration(name: name("QQ"), path: "/q", source: .file("/c.conf", line: 7))
        ])
        let flags = Configuration(inboxes: [
            InboxConfiguration(name: name("Other"), path: "/q", source: .option("--inbox Other=/q"))
        ])
        #expect(throws: ConfigurationError.self) { try file.merging(flags: flags) }
        do {
            _ = try file.merging(flags: flags)
        } catch {
            #expect(error.description.contains("already the inbox 'QQ'"))
            #expect(error.description.contains("--inbox Other=/q"))
        }
    }
}
