import CBenchFloor
import Foundation
import Glibc

/// The physical floor of the same work, with no watching, no debounce and no checks
/// (Benchmarks/CBenchFloor, in C so that no Swift or Foundation cost flatters the
/// ratios): for each file read it and SHA-256 it, rename it into `Roll/YYYY/MM/`, link
/// it into its album, one SQLite insert (in transactions of 256 rows). With `durable`,
/// each file and each touched folder is fsynced and SQLite runs synchronous=FULL.
enum Floor {
    /// Files `pictures` (already dropped into their inboxes); returns the seconds it took.
    static func run(
        library: String, inboxes: [String], pictures: [Picture], durable: Bool
    ) throws -> Double {
        let roll = "\(library)/Roll"
        try makeDirectories(roll)
        for name in Workload.inboxNames { try makeDirectories("\(library)/Albums/\(name)") }
        // Every path is made before the clock starts; the C strings live until the end.
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { strings.forEach { free($0) } }
        func keep(_ text: String) -> UnsafePointer<CChar> {
            let copy = strdup(text)!
            strings.append(copy)
            return UnsafePointer(copy)
        }
        let albumFolders = Workload.inboxNames.map { keep("\(library)/Albums/\($0)") }
        let albumNames = Workload.inboxNames.map { keep($0) }
        var rollFolders: [String: UnsafePointer<CChar>] = [:]
        let files = pictures.map { picture -> bench_floor_file in
            let folder = String(format: "%@/%04d/%02d", roll, picture.year, picture.month)
            let rollFolder = rollFolders[folder] ?? keep(folder)
            rollFolders[folder] = rollFolder
            return bench_floor_file(
                source: keep("\(inboxes[picture.inbox])/\(picture.name)"), roll_folder: rollFolder,
                album_folder: albumFolders[picture.inbox], name: keep(picture.name),
                album: albumNames[picture.inbox])
        }
        var error = [CChar](repeating: 0, count: 512)
        let start = now()
        let status = bench_floor_run(
            "\(library)/floor.sqlite", files, files.count, durable ? BENCH_FLOOR_PER_FILE : BENCH_FLOOR_NONE,
            &error, error.count)
        let seconds = now() - start
        guard status == 0 else {
            let message = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            throw BenchFailure("floor: \(String(decoding: message, as: UTF8.self))")
        }
        return seconds
    }
}
