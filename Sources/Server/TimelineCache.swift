import PhotoFilerCatalog

/// The month counts of recent `/api/timeline` queries, kept until the catalog changes.
///
/// A timeline groups every asset of an album (100,000 rows take 150–200 ms of
/// SQLite's time, the largest part of an album's first screen); the change log's
/// newest sequence number says cheaply whether any asset changed since.
///
/// Used only on the catalog's queue (inside `CatalogAccess.read`), so it needs no lock.
final class TimelineCache {
    private var entries: [String: (change: Int64, months: [Catalog.MonthCount])] = [:]
    private static let capacity = 64

    /// The timeline of `query`, from the cache when nothing changed since it was made.
    func timeline(_ query: AssetQuery, in catalog: Catalog) throws(CatalogError) -> [Catalog.MonthCount] {
        let (sql, values) = query.rows(selecting: "")
        let key = sql + "\u{0}" + String(describing: values)
        let change = try catalog.latestChange()
        if let entry = entries[key], entry.change == change { return entry.months }
        let months = try catalog.timeline(query)
        if entries.count >= Self.capacity { entries.removeAll() }
        entries[key] = (change, months)
        return months
    }
}
