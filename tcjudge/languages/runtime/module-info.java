/**
 * The judge's Java runtime (see tcjudge/languages/java.py): a module that exports and opens
 * nothing, so a solution, loaded into a module of its own (unnamed), can neither call our code nor
 * read or change our state by reflection: not the result channel, not what a serving JVM keeps
 * between tests. java.io is opened to this module alone (--add-opens), for the result channel.
 */
module tcjudge.runtime {
    requires java.management; // ThreadMXBean: whether a test started threads of its own (Main.serve)
}
