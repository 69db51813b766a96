extension FileDescriptor {
    /// Writes all of `bytes` (`withUnsafeBytes` rethrows untyped errors, so the
    /// typed one is carried out in a `Result`).
    package func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try writeAll(buffer) }
        }
        try result.get()
    }
}
