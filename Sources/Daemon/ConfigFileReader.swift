import PhotoFilerFiling
import PhotoFilerGLib
import PhotoFilerSystem

/// Turns GLib's groups and keys into a `Configuration`, checking every value
/// and naming the line of the first one that is wrong.
package struct ConfigFileReader {
    package let file: BytePath
    package let lines: KeyFileLines
    package let environment: [String: String]

    private static let libraryGroup = Array("library".utf8)
    private static let inboxPrefix = Array("inbox".utf8)

    package mutating func read(_ keyFile: KeyFile) throws(ConfigurationError) -> Configuration {
        // GLib hides localised keys (`path[fr]`) from its key list; the file
        // has no localised settings, so such a line is an unknown key.
        for located in lines.keys() where located.key.contains(UInt8(ascii: "[")) {
            throw .unknownKey(
                at: .file(file, line: located.line), group: display(located.group), key: display(located.key))
        }
        if let repeated = lines.repeatedHeader() {
            throw .repeatedGroup(
                at: .file(file, line: repeated.again), group: display(repeated.group),
                firstLine: repeated.first)
        }
        var configuration = Configuration(configFile: file)
        for group in keyFile.groups {
            if group.name == Self.libraryGroup {
                try readLibrary(group, into: &configuration)
            } else if let name = inboxName(group.name) {
                let inbox = try readInbox(group, name: name)
                if let existing = configuration.inboxes.first(where: { $0.path == inbox.path }) {
                    throw .duplicateInbox(
                        at: inbox.source!, path: inbox.path, name: inbox.name.value,
                        existing: existing.name.value)
                }
                configuration.inboxes.append(inbox)
            } else {
                throw .unknownGroup(at: headerSource(group.name), group: display(group.name))
            }
        }
        return configuration
    }

    // MARK: Groups

    private func readLibrary(_ group: KeyFile.Group, into configuration: inout Configuration)
        throws(ConfigurationError)
    {
        for entry in group.entries {
            let at = keySource(group.name, entry.key)
            switch entry.key {
            case "path": configuration.libraryPath = try path(entry, at: at)
            case "link": configuration.link = try link(entry, at: at)
            case "settle":
                configuration.settleMilliseconds = try count(
                    entry, at: at, in: Configuration.settleMilliseconds,
                    expected: "a whole number of milliseconds from 0 to 3600000 (300 is the default)")
            case "rescan":
                configuration.rescanMinutes = try count(
                    entry, at: at, in: Configuration.rescanMinutes,
                    expected: "a whole number of minutes from 0 to 525600 (0 = never, 60 is the default)")
            case "desktop-thumbnails": configuration.desktopThumbnails = try boolean(entry, at: at)
            default:
                throw .unknownKey(at: at, group: "library", key: entry.key)
            }
        }
    }

    private func readInbox(_ group: KeyFile.Group, name rawName: [UInt8]) throws(ConfigurationError)
        -> InboxConfiguration
    {
        let header = headerSource(group.name)
        guard let text = String(validating: rawName, as: UTF8.self) else {
            throw .notUTF8(at: header, what: "an inbox name")
        }
        var name: AlbumName
        do {
            name = try AlbumName(validating: text)
        } catch {
            throw .badAlbumName(at: header, problem: error)
        }
        var path: BytePath? = nil
        var pathSource = header
        var keep: Bool? = nil
        var link: LinkKind? = nil
        for entry in group.entries {
            let at = keySource(group.name, entry.key)
            switch entry.key {
            case "path":
                path = try self.path(entry, at: at)
                pathSource = at
            case "album": name = try album(entry, at: at)
            case "keep": keep = try boolean(entry, at: at)
            case "link": link = try self.link(entry, at: at)
            default: throw .unknownKey(at: at, group: display(group.name), key: entry.key)
            }
        }
        // Named as its header is written (its album may be another, with `album`).
        guard let path else { throw .inboxWithoutPath(at: header, name: text) }
        return InboxConfiguration(name: name, path: path, keep: keep, link: link, source: pathSource)
    }

    /// An inbox's `album`: the album it feeds when that is not the group's NAME, so two
    /// groups (a group is written once) can feed one album.
    private func album(_ entry: KeyFile.Entry, at: ConfigurationSource) throws(ConfigurationError)
        -> AlbumName
    {
        let value = try text(entry, at: at, expected: "an album name")
        guard let text = String(validating: value, as: UTF8.self) else {
            throw .notUTF8(at: at, what: "an album name")
        }
        do {
            return try AlbumName(validating: text)
        } catch {
            throw .badAlbumName(at: at, problem: error)
        }
    }

    /// `inbox NAME` → NAME, spaces around it dropped; nil for other groups.
    private func inboxName(_ group: [UInt8]) -> [UInt8]? {
        guard group.starts(with: Self.inboxPrefix) else { return nil }
        let rest = group.dropFirst(Self.inboxPrefix.count)
        // "[inboxes]" is an unknown group, not an inbox named "es".
        guard rest.isEmpty || rest.first == UInt8(ascii: " ") || rest.first == UInt8(ascii: "\t") else {
            return nil
        }
        return Array(KeyFileLines.trimmed(rest))
    }

    // MARK: Values

    /// The value with GLib's escapes resolved and trailing blanks dropped (GLib
    /// keeps them; a folder name ending in a space is written with `\s`).
    private func text(_ entry: KeyFile.Entry, at: ConfigurationSource, expected: String)
        throws(ConfigurationError) -> [UInt8]
    {
        var trailing = 0
        for byte in entry.raw.reversed() {
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") else { break }
            trailing += 1
        }
        switch entry.string {
        case .success(let value):
            return Array(value.dropLast(trailing))
        case .failure(let message) where message.isEncoding:
            // Not UTF-8: file names are bytes, so take the bytes as written.
            return Array(entry.raw.dropLast(trailing))
        case .failure:
            throw .badValue(at: at, key: entry.key, value: displayRaw(entry), expected: expected)
        }
    }

    private func path(_ entry: KeyFile.Entry, at: ConfigurationSource) throws(ConfigurationError) -> BytePath
    {
        let expected = "a folder, as in ~/Pictures/PhotoFiler (write a backslash as \\\\)"
        let value = try text(entry, at: at, expected: expected)
        if value.isEmpty { throw .badValue(at: at, key: entry.key, value: "", expected: expected) }
        return PathExpansion.absolute(BytePath(bytes: value), base: file.parent, environment: environment)
    }

    private func link(_ entry: KeyFile.Entry, at: ConfigurationSource) throws(ConfigurationError) -> LinkKind
    {
        let expected = "hard or symbolic"
        let value = try text(entry, at: at, expected: expected)
        guard let kind = LinkKind(rawValue: String(decoding: value, as: UTF8.self).lowercased()) else {
            throw .badValue(at: at, key: entry.key, value: displayRaw(entry), expected: expected)
        }
        return kind
    }

    private func boolean(_ entry: KeyFile.Entry, at: ConfigurationSource) throws(ConfigurationError) -> Bool {
        let expected = "true or false"
        switch String(decoding: try text(entry, at: at, expected: expected), as: UTF8.self).lowercased() {
        case "true": return true
        case "false": return false
        default: throw .badValue(at: at, key: entry.key, value: displayRaw(entry), expected: expected)
        }
    }

    private func count(
        _ entry: KeyFile.Entry, at: ConfigurationSource, in range: ClosedRange<Int>, expected: String
    ) throws(ConfigurationError) -> Int {
        let value = try text(entry, at: at, expected: expected)
        guard !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = Int(String(decoding: value, as: UTF8.self)), range.contains(number)
        else {
            throw .badValue(at: at, key: entry.key, value: displayRaw(entry), expected: expected)
        }
        return number
    }

    // MARK: Locating

    private func headerSource(_ group: [UInt8]) -> ConfigurationSource {
        .file(file, line: lines.headerLine(group: group) ?? 1)
    }

    private func keySource(_ group: [UInt8], _ key: String) -> ConfigurationSource {
        .file(file, line: lines.keyLine(group: group, key: key) ?? lines.headerLine(group: group) ?? 1)
    }

    private func display(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private func displayRaw(_ entry: KeyFile.Entry) -> String {
        String(decoding: KeyFileLines.trimmed(entry.raw[...]), as: UTF8.self)
    }
}
