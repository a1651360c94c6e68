// Graded where kotlinc is installed (the class is MainKt); elsewhere skipped with one note.
fun main() {
    val (a, b) = readLine()!!.trim().split(" ").filter { it.isNotEmpty() }.map { it.toLong() }
    println(times(a, b))
}
