fun times(a: Long, b: Long): Long = a * b
