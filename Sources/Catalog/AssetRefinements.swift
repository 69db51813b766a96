/// Where a page of assets continues: the sort key and id of the last asset shown.
///
/// Keyset paging: the next page is the rows after this one in index order, so a
/// page costs the same wherever it is, and an asset filed or deleted meanwhile
/// neither repeats nor skips one.
public struct AssetCursor: Sendable, Equatable {
    public enum Key: Sendable, Equatable {
        /// `added` (seconds, a real number: kept exactly through its bit pattern).
        case added(Double)
        /// `created` (whole seconds).
        case created(Int64)
    }
    public var key: Key
    public var id: AssetID

    public init(key: Key, id: AssetID) {
        self.key = key
        self.id = id
    }

    /// The cursor after `asset` in the given order.
    public init(after asset: AssetRecord, sort: AssetQuery.Sort) {
        switch sort {
        case .added: key = .added(asset.addedAt)
        case .created: key = .created(asset.created.secondsSinceEpoch)
        }
        id = asset.id
    }

    /// `a<hex bits of added>.<id>` or `c<created>.<id>`: opaque to clients, exact.
    public var text: String {
        switch key {
        case .added(let seconds): return "a" + String(seconds.bitPattern, radix: 16) + "." + String(id)
        case .created(let seconds): return "c" + String(seconds) + "." + String(id)
        }
    }

    /// Parses `text` for a query sorted by `sort`; nil when it is not such a cursor.
    public init?(text: String, sort: AssetQuery.Sort) {
        guard let kind = text.first, let dot = text.firstIndex(of: ".") else { return nil }
        let keyText = text[text.index(after: text.startIndex)..<dot]
        guard let id = AssetID(text[text.index(after: dot)...]), id > 0 else { return nil }
        switch (kind, sort) {
        case ("a", .added):
            guard let bits = UInt64(keyText, radix: 16) else { return nil }
            let seconds = Double(bitPattern: bits)
            guard seconds.isFinite else { return nil }
            key = .added(seconds)
        case ("c", .created):
            guard let seconds = Int64(keyText) else { return nil }
            key = .created(seconds)
        default: return nil
        }
        self.id = id
    }

    var value: SQLiteValue {
        switch key {
        case .added(let seconds): return .real(seconds)
        case .created(let seconds): return .integer(seconds)
        }
    }
}

/// The gallery's narrower views of an `AssetQuery`; each one is a condition on the same rows.
public struct AssetRefinements: Sendable, Equatable {
    /// Only assets after this one (the next page).
    public var after: AssetCursor?
    /// Only assets of this subtype (`live` for Live Photos).
    public var subtype: String?
    /// Only assets captured in this month, `YYYY-MM`, in the capture's own zone (as `created` shows it).
    public var month: String?
    /// Only assets whose original name contains this text (ASCII letters compared without case).
    public var nameContains: String?
    /// Only assets captured on or after / on or before this day, `YYYY-MM-DD`.
    public var createdFrom: String?
    public var createdThrough: String?

    public init() {}

    /// The capture day as `created` shows it: in its own offset when known, else the machine's zone.
    package static let captureDay = """
        (CASE WHEN a.created_offset IS NULL THEN strftime('%Y-%m-%d', a.created_at, 'unixepoch', 'localtime') \
        ELSE strftime('%Y-%m-%d', a.created_at + a.created_offset, 'unixepoch') END)
        """

    /// Seconds beyond any UTC offset a capture date can carry (±14 h, and the
    /// machine's zone): a capture day or month lies within this of its UTC bounds.
    static let offsetMargin = 26 * 3600

    /// `created` between the UTC bounds of the days from `first` to before `end` (SQLite
    /// date text, e.g. `2023-12-01`), widened by `offsetMargin`: a range the created-date
    /// index walks, so a month or day filter reads only its own rows and their neighbours.
    private static func createdRange(
        _ created: String, first: String, end: String, _ value: String,
        to conditions: inout [String], _ values: inout [SQLiteValue]
    ) {
        conditions.append(
            "\(created) >= CAST(strftime('%s', \(first)) AS INTEGER) - \(offsetMargin) "
                + "AND \(created) < CAST(strftime('%s', \(end)) AS INTEGER) + \(offsetMargin)")
        values += [.text(value), .text(value)]
    }

    func append(
        to conditions: inout [String], _ values: inout [SQLiteValue], sortKey: (key: String, id: String),
        created: String
    ) {
        if let after {
            // A row value, so SQLite walks the ordering index from the cursor on.
            conditions.append("(\(sortKey.key), \(sortKey.id)) < (?, ?)")
            values += [after.value, .integer(after.id)]
        }
        if let subtype {
            conditions.append("instr(',' || a.subtypes || ',', ',' || ? || ',') > 0")
            values.append(.text(subtype))
        }
        if let month {
            Self.createdRange(
                created, first: "? || '-01'", end: "date(? || '-01', '+1 month')", month, to: &conditions,
                &values)
            conditions.append("substr(\(Self.captureDay), 1, 7) = ?")
            values.append(.text(month))
        }
        if let nameContains {
            conditions.append(
                "instr(\(CaseFolding.functionName)(CAST(a.original_name AS TEXT)), \(CaseFolding.functionName)(?)) > 0"
            )
            values.append(.text(nameContains))
        }
        if let createdFrom {
            conditions.append("\(created) >= CAST(strftime('%s', ?) AS INTEGER) - \(Self.offsetMargin)")
            values.append(.text(createdFrom))
            conditions.append("\(Self.captureDay) >= ?")
            values.append(.text(createdFrom))
        }
        if let createdThrough {
            conditions.append(
                "\(created) < CAST(strftime('%s', date(?, '+1 day')) AS INTEGER) + \(Self.offsetMargin)")
            values.append(.text(createdThrough))
            conditions.append("\(Self.captureDay) <= ?")
            values.append(.text(createdThrough))
        }
    }
}
