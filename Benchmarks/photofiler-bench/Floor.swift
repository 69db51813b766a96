import CCrypto
import CSQLite
import Foundation
import Glibc

/// The physical floor of the same work, with no watching, no debounce and no checks:
/// for each file read it and SHA-256 it, rename it into `Roll/YYYY/MM/`, link it into
/// its album, one SQLite insert (in transactions of `batch` rows). With `durable`,
/// each file and each touched folder is fsynced and SQLite runs synchronous=FULL.
enum Floor {
    static let batch = 256

    /// Files `staged` (already dropped into their inboxes); returns the seconds it took.
    static func run(
        library: String, inboxes: [String], pictures: [Picture], durable: Bool
    ) throws -> Double {
        let roll = "\(library)/Roll"
        try makeDirectories(roll)
        for name in Workload.inboxNames { try makeDirectories("\(library)/Albums/\(name)") }
        var db: OpaquePointer?
        guard sqlite3_open("\(library)/floor.sqlite", &db) == SQLITE_OK else {
            throw BenchFailure("sqlite open")
        }
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "PRAGMA journal_mode=WAL", nil, nil, nil)
        sqlite3_exec(db, durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=OFF", nil, nil, nil)
        sqlite3_exec(
            db,
            "CREATE TABLE assets(id INTEGER PRIMARY KEY, roll_path BLOB UNIQUE, hash TEXT UNIQUE, album TEXT)",
            nil, nil, nil)
        var insert: OpaquePointer?
        sqlite3_prepare_v2(
            db, "INSERT INTO assets(roll_path, hash, album) VALUES (?, ?, ?)", -1, &insert, nil)
        defer { sqlite3_finalize(insert) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { buffer.deallocate() }
        var digest = [UInt8](repeating: 0, count: 32)
        var made: Set<String> = []
        let start = now()
        var pending = 0
        sqlite3_exec(db, "BEGIN", nil, nil, nil)
        for picture in pictures {
            let source = "\(inboxes[picture.inbox])/\(picture.name)"
            let fd = try check(open(source, O_RDONLY | O_CLOEXEC), "open", source)
            var context = EVP_MD_CTX_new()
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
            while true {
                let count = read(fd, buffer.baseAddress, buffer.count)
                if count <= 0 { break }
                EVP_DigestUpdate(context, buffer.baseAddress, count)
            }
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &digest, &length)
            EVP_MD_CTX_free(context)
            context = nil
            if durable { fsync(fd) }
            close(fd)
            let folder = String(format: "%@/%04d/%02d", roll, picture.year, picture.month)
            if made.insert(folder).inserted { try makeDirectories(folder) }
            let rolled = "\(folder)/\(picture.name)"
            try check(rename(source, rolled), "rename", rolled)
            let album = "\(library)/Albums/\(Workload.inboxNames[picture.inbox])"
            try check(link(rolled, "\(album)/\(picture.name)"), "link", album)
            if durable {
                try syncFolder(folder)
                try syncFolder(album)
            }
            let hex = digest.map { String(format: "%02x", $0) }.joined()
            sqlite3_bind_blob(insert, 1, rolled, Int32(rolled.utf8.count), transient)
            sqlite3_bind_text(insert, 2, hex, -1, transient)
            sqlite3_bind_text(insert, 3, Workload.inboxNames[picture.inbox], -1, transient)
            guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchFailure("sqlite insert") }
            sqlite3_reset(insert)
            pending += 1
            if pending == batch {
                sqlite3_exec(db, "COMMIT", nil, nil, nil)
                sqlite3_exec(db, "BEGIN", nil, nil, nil)
                pending = 0
            }
        }
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        return now() - start
    }

    private static func syncFolder(_ path: String) throws {
        let fd = try check(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), "open", path)
        fsync(fd)
        close(fd)
    }
}
