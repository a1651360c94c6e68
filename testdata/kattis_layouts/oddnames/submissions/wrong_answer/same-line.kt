fun main() {
    println(readLine()!!.trim())
}
