import PhotoFilerSystem
import TestSupport
import Testing

@testable import PhotoFilerDaemon

@Suite struct LibraryLocationTests {
    let config = Configuration(libraryPath: "/from/config")

    @Test func flagWinsOverEverything() throws {
        let location = try LibraryLocation.resolve(
            flag: "lib", environment: ["HOME": "/h", "PHOTOFILER_LIBRARY": "/env"], config: config,
            workingDirectory: "/cwd")
        #expect(location == LibraryLocation(path: "/cwd/lib", source: .flag))
    }

    @Test func environmentBeforeConfigFile() throws {
        let location = try LibraryLocation.resolve(
            flag: nil, environment: ["HOME": "/h", "PHOTOFILER_LIBRARY": "~/Lib"], config: config)
        #expect(location == LibraryLocation(path: "/h/Lib", source: .environment))
        let empty = try LibraryLocation.resolve(
            flag: nil, environment: ["HOME": "/h", "PHOTOFILER_LIBRARY": ""], config: config)
        #expect(empty.source == .configFile)
    }

    @Test func configFileBeforeDefault() throws {
        let location = try LibraryLocation.resolve(flag: nil, environment: ["HOME": "/h"], config: config)
        #expect(location == LibraryLocation(path: "/from/config", source: .configFile))
    }

    @Test func defaultFromPicturesVariable() throws {
        let location = try LibraryLocation.resolve(
            flag: nil, environment: ["HOME": "/h", "XDG_PICTURES_DIR": "/data/Photos/"], config: nil)
        #expect(location == LibraryLocation(path: "/data/Photos/PhotoFiler", source: .defaultLocation))
    }

    @Test func defaultFromUserDirsFile() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            # This file is written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Desktop"
            XDG_PICTURES_DIR="$HOME/Bilder"

            """, to: folder.path.appending("user-dirs.dirs"))
        let environment = ["HOME": "/h", "XDG_CONFIG_HOME": folder.path.display]
        let location = try LibraryLocation.resolve(flag: nil, environment: environment, config: nil)
        #expect(location == LibraryLocation(path: "/h/Bilder/PhotoFiler", source: .defaultLocation))
    }

    @Test func defaultWithoutAnything() throws {
        let location = try LibraryLocation.resolve(
            flag: nil, environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/nonexistent"], config: nil)
        #expect(location == LibraryLocation(path: "/h/Pictures/PhotoFiler", source: .defaultLocation))
    }

    /// A `user-dirs.dirs` that is there but cannot be read is an error, not `~/Pictures`.
    @Test func anUnreadableUserDirsFileIsAnError() throws {
        let folder = try TemporaryFolder()
        try Sys.makeDirectories(folder.path.appending("user-dirs.dirs"))  // read(2): EISDIR
        let environment = ["HOME": "/h", "XDG_CONFIG_HOME": folder.path.display]
        #expect(throws: SystemError.self) {
            try LibraryLocation.resolve(flag: nil, environment: environment, config: nil)
        }
    }

    @Test func userDirsValueParsing() throws {
        let data = Array("XDG_PICTURES_DIR=\"/abs/Pic \\\"x\\\"\"\n#XDG_PICTURES_DIR=\"/no\"\n".utf8)
        #expect(XDGDirectories.userDirsValue(data, key: "XDG_PICTURES_DIR") == Array("/abs/Pic \"x\"".utf8))
    }
}
