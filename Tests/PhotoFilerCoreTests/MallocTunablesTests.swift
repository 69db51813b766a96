import Testing

@testable import PhotoFilerSystem

/// When `watch` starts itself again for photofiler's malloc cache size: only when the
/// start would have it. A user's cache size wins, and in secure-execution mode glibc
/// would drop the setting again, so a start there would ask forever.
@Suite struct MallocTunablesTests {
    @Test(
        arguments: [
            (nil, false, true),
            ("glibc.malloc.arena_max=2", false, true),
            ("glibc.malloc.tcache_count=256", false, false),
            ("glibc.malloc.arena_max=2:glibc.malloc.tcache_count=16", false, false),
            (nil, true, false),
            ("glibc.malloc.arena_max=2", true, false),
        ] as [(String?, Bool, Bool)])
    func startsAgainOnlyWhenTheSettingWouldTakeEffect(tunables: String?, secure: Bool, again: Bool) {
        #expect(MallocTunables.shouldStartAgain(tunables: tunables, secureExecution: secure) == again)
    }

    /// The setting goes first, so a user's own setting of the same tunable, read later, wins.
    @Test func photofilersSettingComesBeforeTheInheritedOnes() {
        #expect(MallocTunables.value(before: nil) == MallocTunables.setting)
        #expect(
            MallocTunables.value(before: "glibc.malloc.arena_max=2")
                == "\(MallocTunables.setting):glibc.malloc.arena_max=2")
    }

    /// This test process is no set-user-ID program.
    @Test func thisProcessIsNotInSecureExecution() {
        #expect(
            MallocTunables.shouldStartAgain
                == MallocTunables.shouldStartAgain(tunables: MallocTunables.inherited, secureExecution: false)
        )
    }
}
