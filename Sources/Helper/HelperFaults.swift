#if DEBUG
    import Glibc
    import PhotoFilerSystem

    /// Test files that make a helper fail the ways hostile bytes can (debug builds
    /// only; compiled out of release builds): a file whose first bytes are
    /// `PHOTOFILER-TEST-CRASH` crashes the helper (a wild write, as a memory bug
    /// does), `PHOTOFILER-TEST-HANG` makes it loop forever, `PHOTOFILER-TEST-ALLOCATE`
    /// makes it allocate without end. The tests drop such files among real pictures.
    enum HelperFaults {
        static let prefix = Array("PHOTOFILER-TEST-".utf8)

        /// Runs the fault the file asks for, if any (it does not return then).
        static func trigger(_ fd: FileDescriptor) {
            var head = [UInt8](repeating: 0, count: 32)
            let count = head.withUnsafeMutableBytes { (try? fd.read(into: $0, at: 0)) ?? 0 }
            guard count >= prefix.count, Array(head[..<prefix.count]) == prefix else { return }
            let word = String(
                decoding: head[prefix.count..<count].prefix { $0 >= 0x41 && $0 <= 0x5A }, as: UTF8.self)
            switch word {
            case "CRASH":
                UnsafeMutablePointer<Int>(bitPattern: 16)!.pointee = 1
            case "HANG":
                var spins: UInt64 = 0
                while true {
                    spins &+= 1
                    if spins == 0 { print(spins) }  // keeps the loop from being optimised away
                }
            case "ALLOCATE":
                // What a parser trusting a hostile length does: allocate, touch, never
                // free, and use what malloc returns without looking (it fails at RLIMIT_AS).
                while true {
                    let size = 16 << 20
                    memset(malloc(size)!, 0x5A, size)
                }
            default:
                return
            }
        }
    }
#endif
