import TestSupport
import Testing

@testable import PhotoFilerDaemon
@testable import PhotoFilerFiling
@testable import PhotoFilerSystem

@Suite struct ConfigFileTests {
    let file = BytePath("/etc/xdg/photofiler/photofiler.conf")
    let environment = ["HOME": "/home/ann"]

    func parse(_ text: String) throws(ConfigurationError) -> Configuration {
        try ConfigFile.parse(Array(text.utf8), file: file, environment: environment)
    }

    func refusal(_ text: String) -> ConfigurationError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func specExampleParses() throws {
        let text = """
            [library]
            path = ~/Pictures/PhotoFiler
            link = hard
            settle = 300
            rescan = 60

            [inbox QQ]
            path = ~/Downloads/QQ

            [inbox WeChat]
            path = ~/Documents/WeChat Files/Saved
            keep = true

            """
        let configuration = try parse(text)
        #expect(configuration.libraryPath == "/home/ann/Pictures/PhotoFiler")
        #expect(configuration.link == .hard)
        #expect(configuration.settleMilliseconds == 300)
        #expect(configuration.rescanMinutes == 60)
        #expect(configuration.configFile == file)
        #expect(
            configuration.inboxes == [
                InboxConfiguration(name: try AlbumName(validating: "QQ"), path: "/home/ann/Downloads/QQ"),
                InboxConfiguration(
                    name: try AlbumName(validating: "WeChat"), path: "/home/ann/Documents/WeChat Files/Saved",
                    keep: true),
            ])
        #expect(configuration.inboxes[1].source == .file(file, line: 11))
        #expect(configuration.effectiveKeep(for: configuration.inboxes[0]) == false)
        #expect(configuration.effectiveKeep(for: configuration.inboxes[1]) == true)
    }

    @Test func commentsBlankLinesAndEmptyFile() throws {
        #expect(try parse("") == Configuration(configFile: file))
        let configuration = try parse(
            """
            # photofiler settings
              # indented comment

            [library]
            # settle = oops
            settle = 0
            rescan=0
            """)
        #expect(configuration.settleMilliseconds == 0)
        #expect(configuration.rescanMinutes == 0)
        #expect(configuration.inboxes.isEmpty)
    }

    @Test func tildeExpansionAndRelativePaths() throws {
        let configuration = try parse(
            """
            [library]
            path = ~
            [inbox A]
            path = ~/a//b/
            [inbox B]
            path = relative/dir
            [inbox C]
            path = ~other/x
            [inbox D]
            path = /abs/with\\sspace\\s   
            """)
        #expect(configuration.libraryPath == "/home/ann")
        #expect(
            configuration.inboxes.map(\.path) == [
                "/home/ann/a/b", "/etc/xdg/photofiler/relative/dir", "/etc/xdg/photofiler/~other/x",
                "/abs/with space ",
            ])
    }

    @Test func inboxKeepAndLink() throws {
        let configuration = try parse(
            """
            [library]
            link = symbolic
            [inbox Weibo]
            path = /w
            keep = false
            link = hard
            [inbox QQ]
            path = /q
            """)
        #expect(configuration.inboxes[0].keep == false)
        #expect(configuration.inboxes[0].link == .hard)
        #expect(configuration.effectiveLink(for: configuration.inboxes[0]) == .hard)
        #expect(configuration.effectiveLink(for: configuration.inboxes[1]) == .symbolic)
    }

    @Test func albumNamesAreNFC() throws {
        let configuration = try parse("[inbox Cafe\u{301}]\npath = /c\n")
        #expect(configuration.inboxes[0].name.value == "Caf\u{E9}")
    }

    @Test(arguments: [
        ("[library]\npath = /x\nthis is not a pair\n", 3, "cannot be read"),
        ("# comment\nsettle = 3\n[library]\n", 2, "cannot be read"),
        ("[library]\n\n[inbox QQ\npath = /q\n", 3, "cannot be read"),
        ("[library]\npath = /x\n[libary]\npath = /y\n", 3, "unknown group [libary]"),
        ("[Library]\n", 1, "unknown group [Library]"),
        ("[inboxes]\npath = /x\n", 1, "unknown group [inboxes]"),
        ("[library]\npath = /x\n\nsetle = 20\n", 4, "unknown key 'setle' in [library]"),
        ("[inbox QQ]\npath = /q\nsettle = 5\n", 3, "unknown key 'settle' in [inbox QQ]"),
        ("[library]\npath[fr] = /x\n", 2, "unknown key 'path[fr]'"),
        ("[library]\nlink = soft\n", 2, "hard or symbolic"),
        ("[library]\n\nsettle = -5\n", 3, "sets settle to '-5'"),
        ("[library]\nsettle = 300ms\n", 2, "milliseconds"),
        ("[library]\nsettle = 300 # default\n", 2, "milliseconds"),
        ("[library]\nrescan = hourly\n", 2, "minutes"),
        ("[library]\nrescan = 99999999999999999999999\n", 2, "minutes"),
        ("[library]\nsettle = 4000000\n", 2, "from 0 to 3600000"),
        ("[library]\nrescan = 600000\n", 2, "from 0 to 525600"),
        ("[inbox QQ]\npath = /q\nkeep = yes\n", 3, "true or false"),
        ("[library]\npath =\n", 2, "a folder"),
        ("[library]\npath = /bad\\qescape\n", 2, "backslash"),
        ("[library]\n[inbox QQ]\nkeep = true\n", 2, "without a path"),
        ("[inbox QQ laptop]\nalbum = QQ\n", 1, "starts [inbox QQ laptop] without a path"),
        ("[inbox A]\npath = /same\n[inbox B]\npath = /same/\n", 4, "already the inbox 'A'"),
        ("[inbox A]\npath = /a\n\n[inbox A]\npath = /b\n", 4, "starts [inbox A] again, after line 1"),
        ("[inbox A]\npath = /a\n\n[inbox A]\npath = /b\n", 4, "a group of its own, with 'album = A'"),
        (
            "[library]\nlink = hard\n[inbox Q]\npath = /q\n[library]\nsettle = 5\n", 5,
            "write each group once."
        ),
        ("[inbox ..]\npath = /x\n", 1, "other than '.' or '..'"),
        ("[inbox .]\npath = /x\n", 1, "other than '.' or '..'"),
        ("[inbox a/b]\npath = /x\n", 1, "contains '/'"),
        ("[inbox B]\npath = /x\nalbum = a/b\n", 3, "contains '/'"),
        ("[inbox B]\npath = /x\nalbum =\n", 3, "empty"),
        ("[inbox]\npath = /x\n", 1, "empty"),
        ("[inbox   ]\npath = /x\n", 1, "empty"),
    ])
    func badLinesAreRefusedWithTheirLine(text: String, line: Int, phrase: String) {
        guard let error = refusal(text) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(error.line == line, "\(error)")
        #expect(error.file == file)
        let message = error.description
        #expect(message.contains(phrase), "\(message)")
        #expect(
            message.lowercased().contains(
                "line \(line) of the config file '/etc/xdg/photofiler/photofiler.conf'"))
        #expect(message.hasSuffix("."))
        #expect(!message.contains("\n"))
    }

    /// A group is written once; a second folder for an album names it with `album`.
    @Test func twoGroupsFeedOneAlbum() throws {
        let configuration = try parse(
            "[inbox QQ]\npath = /a\n\n[inbox QQ on the laptop]\npath = /b\nalbum = QQ\n")
        #expect(configuration.inboxes.map(\.name.value) == ["QQ", "QQ"])
        #expect(configuration.inboxes.map(\.path) == ["/a", "/b"])
    }

    @Test func repeatedKeyLastWinsAndIsLocated() {
        let text = "[library]\nlink = hard\nlink = wrong\n"
        #expect(refusal(text)?.line == 3)
    }

    @Test func nonUTF8PathIsKeptAsBytes() throws {
        let data = Array("[inbox X]\npath = /in/caf".utf8) + [0xE9] + Array("\n".utf8)
        let configuration = try ConfigFile.parse(data, file: file, environment: environment)
        #expect(configuration.inboxes[0].path.bytes == Array("/in/caf".utf8) + [0xE9])
    }

    @Test func missingFileIsUnreadable() {
        do {
            _ = try ConfigFile.load("/nonexistent/photofiler.conf", environment: environment)
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.file == "/nonexistent/photofiler.conf")
            #expect(error.description.contains("--config"))
        }
    }

    @Test func loadsFromDisk() throws {
        let folder = try TemporaryFolder()
        let path = folder.path.appending("photofiler.conf")
        try folder.write("[inbox QQ]\npath = inbox\n", to: path)
        let configuration = try ConfigFile.load(path, environment: environment)
        #expect(configuration.inboxes.first?.path == folder.path.appending("inbox"))
    }

    @Test func defaultPathOnlyWhenItExists() throws {
        let folder = try TemporaryFolder()
        let environment = ["HOME": "/nonexistent", "XDG_CONFIG_HOME": folder.path.display]
        #expect(ConfigFile.defaultPath(environment: environment) == nil)
        try Sys.makeDirectories(folder.path.appending("photofiler"))
        let expected = folder.path.appending("photofiler/photofiler.conf")
        try folder.write("", to: expected)
        #expect(ConfigFile.defaultPath(environment: environment) == expected)
        // A relative XDG_CONFIG_HOME is ignored, as the base-directory spec says.
        #expect(
            ConfigFile.defaultPath(environment: ["HOME": folder.path.display, "XDG_CONFIG_HOME": "rel"])
                == nil)
    }
}

@Suite struct ExampleConfigTests {
    @Test func theShippedSampleConfigParses() throws {
        let repo = BytePath(#filePath).parent.parent.parent.parent
        let configuration = try ConfigFile.load(
            repo.appending("examples/photofiler.conf"), environment: ["HOME": "/h"])
        #expect(configuration.libraryPath == "/h/Pictures/PhotoFiler")
        #expect(configuration.inboxes.map(\.name.value) == ["QQ", "WeChat", "Weibo"])
        #expect(
            configuration.inboxes.map(\.path) == [
                "/h/Downloads/QQ", "/h/Documents/WeChat Files/Saved", "/h/Pictures/Weibo",
            ])
        #expect(configuration.inboxes.map(\.keep) == [nil, true, nil])
    }
}
