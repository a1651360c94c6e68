// expect: RE
// /proc is readable to a C# program (mono reads /proc/self/maps), but what of another process needs the
// ptrace check stays refused by Landlock's ptrace rule: the zygote's (its parent's) environ, maps and
// mem; and nothing else of the machine's files (/etc/passwd). Exit status 3 when all are refused.
using System;
using System.IO;

class Proc {
    static bool Refused(string path) {
        try { File.ReadAllBytes(path); return false; } catch (UnauthorizedAccessException) { return true; }
    }

    static void Main() {
        string parent = "/proc/" + File.ReadAllText("/proc/self/stat").Split(' ')[3];
        bool refused = Refused(parent + "/environ") && Refused(parent + "/maps") && Refused(parent + "/mem")
            && Refused("/etc/passwd");
        Environment.Exit(refused ? 3 : 4);
    }
}
