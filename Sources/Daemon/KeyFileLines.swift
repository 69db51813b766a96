import PhotoFilerGLib

/// Finds the line numbers of a key file's groups and keys.
///
/// GLib parses the file but forgets where each group and key was; messages must
/// name the line to fix, so this scans the raw lines to *locate* what GLib
/// parsed. It follows GLib's layout rules only as far as locating needs:
/// `[name]` headers, `key = value` lines, `#` comments.
package struct KeyFileLines {
    /// The file's lines without their line ends.
    package let lines: [ArraySlice<UInt8>]

    package init(_ data: [UInt8]) {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        self.lines = lines.map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
    }

    /// The line's text for messages.
    package func text(ofLine number: Int) -> String {
        guard number >= 1, number <= lines.count else { return "" }
        return String(decoding: Self.trimmed(lines[number - 1]), as: UTF8.self)
    }

    /// The first line of the header `[group]` (GLib merges repeated groups).
    package func headerLine(group: [UInt8]) -> Int? {
        for (index, line) in lines.enumerated() where Self.header(line) == group { return index + 1 }
        return nil
    }

    /// The last line that sets `key` in any `[group]` section: GLib keeps the
    /// last value of a repeated key, so that is the line that counts.
    package func keyLine(group: [UInt8], key: String) -> Int? {
        var current: [UInt8]? = nil
        var found: Int? = nil
        for (index, line) in lines.enumerated() {
            if let name = Self.header(line) {
                current = name
            } else if current == group, Self.key(line) == Array(key.utf8) {
                found = index + 1
            }
        }
        return found
    }

    /// The first header that repeats an earlier one: its name, the earlier line and its own.
    package func repeatedHeader() -> (group: [UInt8], first: Int, again: Int)? {
        var seen: [[UInt8]: Int] = [:]
        for (index, line) in lines.enumerated() {
            guard let name = Self.header(line) else { continue }
            if let first = seen[name] { return (name, first, index + 1) }
            seen[name] = index + 1
        }
        return nil
    }

    /// Every `key = value` line with its group, in file order.
    package func keys() -> [(line: Int, group: [UInt8], key: [UInt8])] {
        var current: [UInt8] = []
        var result: [(line: Int, group: [UInt8], key: [UInt8])] = []
        for (index, line) in lines.enumerated() {
            if let name = Self.header(line) {
                current = name
            } else if let key = Self.key(line) {
                result.append((index + 1, current, key))
            }
        }
        return result
    }

    /// The line at which GLib's parser fails, found by loading ever longer
    /// prefixes of the file: exact whatever GLib's message says or its language.
    package func firstFailingLine(in data: [UInt8]) -> Int {
        var end = data.startIndex
        for number in 1...max(lines.count, 1) {
            if let newline = data[end...].firstIndex(of: UInt8(ascii: "\n")) {
                end = newline + 1
            } else {
                end = data.endIndex
            }
            if !KeyFile.parses(data[..<end]) { return number }
        }
        return max(lines.count, 1)
    }

    private static func header(_ line: ArraySlice<UInt8>) -> [UInt8]? {
        let text = trimmed(line)
        guard text.first == UInt8(ascii: "["), text.last == UInt8(ascii: "]"), text.count >= 2 else {
            return nil
        }
        return Array(text.dropFirst().dropLast())
    }

    private static func key(_ line: ArraySlice<UInt8>) -> [UInt8]? {
        let text = trimmed(line)
        guard text.first != UInt8(ascii: "#"), let equals = text.firstIndex(of: UInt8(ascii: "=")) else {
            return nil
        }
        return Array(trimmed(text[..<equals]))
    }

    package static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }
}
