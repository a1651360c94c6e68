fun main() {
    val words = readLine()!!.trim().split(" ").filter { it.isNotEmpty() }.map { it.toLong() }
    println(words[0] * words[1])
}
