#define _GNU_SOURCE
#include "bench_floor.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { BATCH = 256, BUFFER_SIZE = 1 << 20 };

static int fail(char *error, size_t size, const char *what, const char *path) {
    snprintf(error, size, "%s %s: %s", what, path, strerror(errno));
    return -1;
}

static int sync_folder(const char *path) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = fsync(fd);
    close(fd);
    return result;
}

/// mkdir -p for a Roll/YYYY/MM folder (its parents may be missing too).
static int make_folders(const char *path) {
    char buffer[4096];
    size_t length = strlen(path);
    if (length >= sizeof buffer) { errno = ENAMETOOLONG; return -1; }
    memcpy(buffer, path, length + 1);
    for (size_t i = 1; i <= length; i++) {
        if (buffer[i] != '/' && buffer[i] != '\0') continue;
        char saved = buffer[i];
        buffer[i] = '\0';
        if (mkdir(buffer, 0755) != 0 && errno != EEXIST) return -1;
        buffer[i] = saved;
    }
    return 0;
}

/// Reads `fd` to its end through SHA-256; writes 64 hex digits and a NUL to `hex`.
static int hash_file(int fd, unsigned char *buffer, EVP_MD_CTX *context, char hex[65]) {
    EVP_DigestInit_ex(context, EVP_sha256(), NULL);
    for (;;) {
        ssize_t count = read(fd, buffer, BUFFER_SIZE);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) return -1;
        if (count == 0) break;
        EVP_DigestUpdate(context, buffer, (size_t)count);
    }
    unsigned char digest[32];
    unsigned int length = 0;
    EVP_DigestFinal_ex(context, digest, &length);
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[64] = '\0';
    return 0;
}

int bench_floor_run(const char *database, const struct bench_floor_file *files, size_t count,
                    enum bench_floor_durability durability, char *error, size_t error_size) {
    int durable = durability == BENCH_FLOOR_PER_FILE;
    sqlite3 *db = NULL;
    if (sqlite3_open(database, &db) != SQLITE_OK) return fail(error, error_size, "sqlite3_open", database);
    sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
    sqlite3_exec(db, durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=OFF", NULL, NULL, NULL);
    sqlite3_exec(db, "CREATE TABLE assets(id INTEGER PRIMARY KEY, roll_path BLOB UNIQUE, hash TEXT UNIQUE, album TEXT)",
                 NULL, NULL, NULL);
    sqlite3_stmt *insert = NULL;
    sqlite3_prepare_v2(db, "INSERT INTO assets(roll_path, hash, album) VALUES (?, ?, ?)", -1, &insert, NULL);

    static unsigned char buffer[BUFFER_SIZE];
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    const char *made = "";  // the last Roll folder made: a burst's files come month by month
    char rolled[4096], entry[4096], hex[65];
    int result = 0;
    size_t pending = 0;
    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
    for (size_t i = 0; i < count && result == 0; i++) {
        const struct bench_floor_file *file = &files[i];
        int fd = open(file->source, O_RDONLY | O_CLOEXEC);
        if (fd < 0) { result = fail(error, error_size, "open", file->source); break; }
        if (hash_file(fd, buffer, context, hex) != 0 || (durable && fsync(fd) != 0)) {
            result = fail(error, error_size, "read", file->source);
        }
        close(fd);
        if (result != 0) break;
        if (strcmp(made, file->roll_folder) != 0) {
            if (make_folders(file->roll_folder) != 0) { result = fail(error, error_size, "mkdir", file->roll_folder); break; }
            made = file->roll_folder;
        }
        snprintf(rolled, sizeof rolled, "%s/%s", file->roll_folder, file->name);
        snprintf(entry, sizeof entry, "%s/%s", file->album_folder, file->name);
        if (rename(file->source, rolled) != 0) { result = fail(error, error_size, "rename", rolled); break; }
        if (link(rolled, entry) != 0) { result = fail(error, error_size, "link", entry); break; }
        if (durable && (sync_folder(file->roll_folder) != 0 || sync_folder(file->album_folder) != 0)) {
            result = fail(error, error_size, "fsync", file->roll_folder);
            break;
        }
        sqlite3_bind_blob(insert, 1, rolled, (int)strlen(rolled), SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 2, hex, 64, SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 3, file->album, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(insert) != SQLITE_DONE) {
            snprintf(error, error_size, "sqlite insert: %s", sqlite3_errmsg(db));
            result = -1;
        }
        sqlite3_reset(insert);
        if (++pending == BATCH) {
            sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
            sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
            pending = 0;
        }
    }
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    EVP_MD_CTX_free(context);
    sqlite3_finalize(insert);
    sqlite3_close(db);
    return result;
}
