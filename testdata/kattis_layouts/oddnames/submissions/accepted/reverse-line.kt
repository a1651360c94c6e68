// A file name with a dash: kotlinc names its class Reverse_lineKt.
fun main() {
    println(readLine()!!.trim().reversed())
}
