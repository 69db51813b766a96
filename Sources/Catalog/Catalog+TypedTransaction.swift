extension Catalog {
    /// `transaction` for bodies that throw only `CatalogError`, keeping the type.
    package func transactionTyped<R>(_ body: () throws(CatalogError) -> R) throws(CatalogError) -> R {
        do {
            return try transaction { try body() }
        } catch let error as CatalogError {
            throw error
        } catch {
            throw .sqlite(code: -1, message: "\(error)", sql: "transaction")
        }
    }
}
