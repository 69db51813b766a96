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

    /// Where each of `components` lies in `bytes`, found as it is iterated: no array.
    /// For questions asked of every file filed (is it in a hidden folder below its
    /// inbox), where arrays of components, with `normalize`'s, were 8% of the filing
    /// queue's time in a burst (`perf`).
    public var componentRanges: ComponentRanges { ComponentRanges(bytes: bytes) }

    /// The last component (the file name), or the whole path when it has no `/`.
    public var lastComponent: BytePath { BytePath(bytes: bytes[lastComponentRange]) }

    /// Where `lastComponent` lies in `bytes` (a trailing `/` left out), for a look at
    /// the name that needs no copy of it.
    public var lastComponentRange: Range<Int> {
        let end = bytes.last == UInt8(ascii: "/") ? bytes.count - 1 : bytes.count
        guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else { return 0..<end }
        return (slash + 1)..<end
    }

    /// The folder holding this path (`.` for a bare name, `/` for a top-level one).
    public var parent: BytePath {
        let trimmed = bytes.last == UInt8(ascii: "/") && bytes.count > 1 ? Array(bytes.dropLast()) : bytes
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return BytePath(".") }
        if slash == 0 { return BytePath("/") }
        return BytePath(bytes: trimmed[..<slash])
    }

    /// This path with `component` (a name or a relative path) appended: one
    /// allocation of the exact size (it runs several times for each file filed).
    public func appending(_ component: BytePath) -> BytePath {
        if component.isAbsolute || bytes.isEmpty { return component }
        if component.isEmpty { return self }
        let slash = UInt8(ascii: "/")
        let separator = bytes.last == slash ? 0 : 1
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + separator + component.bytes.count)
        result.append(contentsOf: bytes)
        if separator == 1 { result.append(slash) }
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

    /// Calls `body` with a NUL-terminated copy of the path, made on the stack (a
    /// long path's on the heap): every call into libc with a path makes one.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            bytes.withUnsafeBytes { path in
                _ = UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, from: path)
            }
            buffer[bytes.count] = 0
            return try body(UnsafePointer(buffer.baseAddress!))
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

/// The ranges of a path's components in its bytes, empty components (from `//` or
/// a trailing `/`) skipped, computed as they are iterated.
public struct ComponentRanges: Sequence {
    fileprivate let bytes: [UInt8]

    public struct Iterator: IteratorProtocol {
        fileprivate let bytes: [UInt8]
        fileprivate var position = 0

        public mutating func next() -> Range<Int>? {
            let slash = UInt8(ascii: "/")
            while position < bytes.count, bytes[position] == slash { position += 1 }
            guard position < bytes.count else { return nil }
            let start = position
            while position < bytes.count, bytes[position] != slash { position += 1 }
            return start..<position
        }
    }

    public func makeIterator() -> Iterator { Iterator(bytes: bytes) }
}
