import Glibc

extension Sys {
    /// `isatty(3)`: whether `descriptor` is a terminal (a progress bar can be drawn on it).
    public static func isTerminal(_ descriptor: CInt) -> Bool {
        isatty(descriptor) == 1
    }
}
