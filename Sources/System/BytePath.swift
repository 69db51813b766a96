/// A file path as the kernel sees it: bytes, not text.
///
/// Linux file names are arbitrary bytes except `/` and NUL. Foundation's `String`
/// and `URL` replace ill-formed UTF-8 with U+FFFD, and the mangled path then names
/// a different (usually missing) file, so every path in the product is a
/// `BytePath` from `readdir` to `openat`; `String` is only for display.
public struct BytePath: Hashable, Sendable, Comparable {
    /// The path's bytes, without a terminating NUL.
    public var bytes: [UInt8]

    public init<S: Sequence>(bytes: S) where S.Element == UInt8 {
        self.bytes = Array(bytes)
    }

    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// Reads a NUL-terminated C string as bytes, without any decoding.
    public init(cString: UnsafePointer<CChar>) {
        let count = strlenBytes(cString)
        self.bytes = cString.withMemoryRebound(to: UInt8.self, capacity: count) {
            Array(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// Hashes the bytes in one go (the synthesized form feeds them one at a time,
    /// which dominated a start-up comparing 100,000 roll paths).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Eight bytes at a time, from the end: paths in one folder share their start and
    /// differ near the end, and a dictionary of a million roll paths compares keys on
    /// every probe (`Array`'s `==` went byte by byte from the start).
    public static func == (lhs: BytePath, rhs: BytePath) -> Bool {
        lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                guard left.count == right.count else { return false }
                var end = left.count
                while end >= 8 {
                    end -= 8
                    if left.loadUnaligned(fromByteOffset: end, as: UInt64.self)
                        != right.loadUnaligned(fromByteOffset: end, as: UInt64.self)
                    {
                        return false
                    }
                }
                while end > 0 {
                    end -= 1
                    if left[end] != right[end] { return false }
                }
                return true
            }
        }
    }

    public static func < (lhs: BytePath, rhs: BytePath) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    public var isEmpty: Bool { bytes.isEmpty }
    public var isAbsolute: Bool { bytes.first == UInt8(ascii: "/") }

    /// True when the bytes are well-formed UTF-8 (and so display without loss).
    public var isValidUTF8: Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// The path for people: each ill-formed UTF-8 sequence shows as U+FFFD.
    public var display: String { String(decoding: bytes, as: UTF8.self) }

    /// The path's components, empty ones (from `//` or a trailing `/`) dropped.
    public var components: [BytePath] {
        bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            .map { BytePath(bytes: $0) }
    }

    /// Where each of `components` lies in `bytes`: one array, where `components`
    /// makes one per component. For questions asked of every file filed (is it in
    /// a hidden folder below its inbox), where those arrays, with `normalize`'s,
    /// were 8% of the filing queue's time in a burst (`perf`).
    public var componentRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "/") {
                if let begun = start { ranges.append(begun..<index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let begun = start { ranges.append(begun..<bytes.count) }
        return ranges
    }

    /// The last component (the file name), or the whole path when it has no `/`.
    public var lastComponent: BytePath {
        let trimmed = bytes.last == UInt8(ascii: "/") ? Array(bytes.dropLast()) : bytes
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return BytePath(bytes: trimmed) }
        return BytePath(bytes: trimmed[(slash + 1)...])
    }

    /// The folder holding this path (`.` for a bare name, `/` for a top-level one).
    public var parent: BytePath {
        let trimmed = bytes.last == UInt8(ascii: "/") && bytes.count > 1 ? Array(bytes.dropLast()) : bytes
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return BytePath(".") }
        if slash == 0 { return BytePath("/") }
        return BytePath(bytes: trimmed[..<slash])
    }

    /// This path with `component` (a name or a relative path) appended.
    public func appending(_ component: BytePath) -> BytePath {
        if component.isAbsolute || bytes.isEmpty { return component }
        if component.isEmpty { return self }
        var result = bytes
        if result.last != UInt8(ascii: "/") { result.append(UInt8(ascii: "/")) }
        result.append(contentsOf: component.bytes)
        return BytePath(bytes: result)
    }

    public func appending(_ component: String) -> BytePath {
        appending(BytePath(component))
    }

    /// The file name's extension without the dot, lowercased ASCII; empty when none.
    public var extensionLowercased: String {
        let name = lastComponent.bytes
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return "" }
        return String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
    }

    /// True when `self` is `other` or lies below it (component-wise, no `..` resolution).
    /// Compares the bytes in place with plain loops: it runs for every event the daemon
    /// sees and for every waiting file at each state update, and a generic search
    /// (`firstRange(of:)`) was a third of a burst's CPU time in its metadata lookups.
    public func isWithin(_ other: BytePath) -> Bool {
        bytes.withUnsafeBufferPointer { path in
            other.bytes.withUnsafeBufferPointer { base in
                if Self.hasEmptyComponent(path) || Self.hasEmptyComponent(base) {
                    return components.starts(with: other.components)  // an unusual spelling: by components
                }
                let pathCount = Self.countWithoutTrailingSlashes(path)
                let baseCount = Self.countWithoutTrailingSlashes(base)
                guard pathCount >= baseCount else { return false }
                for index in 0..<baseCount where path[index] != base[index] { return false }
                if pathCount == baseCount { return true }
                let slash = UInt8(ascii: "/")
                return (baseCount > 0 && base[baseCount - 1] == slash) || path[baseCount] == slash
            }
        }
    }

    /// True when the bytes hold `//` (an empty component).
    private static func hasEmptyComponent(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/")
        var previousWasSlash = false
        for byte in bytes {
            if byte == slash, previousWasSlash { return true }
            previousWasSlash = byte == slash
        }
        return false
    }

    /// The length without trailing slashes, a lone `/` kept.
    private static func countWithoutTrailingSlashes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = bytes.count
        while count > 1, bytes[count - 1] == UInt8(ascii: "/") { count -= 1 }
        return count
    }

    /// The relative path that leads from folder `base` to `self`, both absolute
    /// and normalised (used for relative symbolic links into the Roll).
    public func relative(from base: BytePath) -> BytePath {
        let target = components
        let from = base.components
        var common = 0
        while common < target.count, common < from.count, target[common] == from[common] { common += 1 }
        var result: [UInt8] = []
        for _ in common..<from.count { result.append(contentsOf: Array("../".utf8)) }
        for (index, part) in target[common...].enumerated() {
            if index > 0 { result.append(UInt8(ascii: "/")) }
            result.append(contentsOf: part.bytes)
        }
        return BytePath(bytes: result)
    }

    /// Calls `body` with a NUL-terminated copy of the path.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var buffer = bytes
        buffer.append(0)
        return try buffer.withUnsafeBufferPointer { pointer in
            try pointer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}

extension BytePath: CustomStringConvertible {
    public var description: String { display }
}

extension BytePath: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(value) }
}

private func strlenBytes(_ pointer: UnsafePointer<CChar>) -> Int {
    var count = 0
    while pointer[count] != 0 { count += 1 }
    return count
}
