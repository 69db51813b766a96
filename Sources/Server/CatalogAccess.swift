import Dispatch
import PhotoFilerCatalog
import PhotoFilerFiling

/// The gallery's one catalog connection, confined to one serial queue; every
/// request thread reads through `read`.
///
/// `@unchecked Sendable`: `catalog` is a non-Sendable SQLite handle that is only
/// touched inside `queue.sync` / `queue.async` blocks below.
public final class CatalogAccess: @unchecked Sendable {
    private let catalog: Catalog
    public let layout: LibraryLayout
    private let queue = DispatchQueue(label: "photofiler.gallery.catalog")

    /// Takes over `catalog`: the caller must not use it afterwards.
    public init(catalog: Catalog, layout: LibraryLayout) {
        self.catalog = catalog
        self.layout = layout
    }

    /// Runs `body` on the catalog's queue and waits for it.
    public func read<R, E: Error>(_ body: (Catalog) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = queue.sync {
            do throws(E) {
                return .success(try body(catalog))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs `body` on the catalog's queue later.
    func later(_ body: @escaping @Sendable (Catalog) -> Void) {
        queue.async { [self] in body(catalog) }
    }
}
