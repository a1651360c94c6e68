# expect: CE
numbers = STDIN.read.split.map(&:to_i)
puts numbers.sum(
