import CSystemShims

extension Sys {
    /// The type of the file system holding the open file (`fstatfs(2)`'s `f_type`
    /// magic number: 0xEF53 for ext2/3/4, 0x58465342 for XFS, 0x01021994 for tmpfs).
    public static func fileSystemType(of file: FileDescriptor) throws(SystemError) -> Int64 {
        var type = 0
        try check("fstatfs", nil) {
            type = photofiler_file_system_type(file.rawValue)
            return type == -1 ? -1 : 0
        }
        return Int64(type)
    }
}
