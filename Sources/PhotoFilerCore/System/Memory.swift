/// glibc's `malloc_trim` lives in `<malloc.h>`, which the Glibc module does not
/// import; it is declared here by its C symbol.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32

extension Sys {
    /// Gives freed heap memory back to the system: after a start-up that built tables
    /// as large as the library, an idle daemon should not keep that peak resident.
    public static func returnFreeMemory() {
        _ = glibcMallocTrim(0)
    }
}
