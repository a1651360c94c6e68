# expect: AC
# t, then t pairs: each pair's sum on a line of its own.
numbers = STDIN.read.split.map(&:to_i)
puts (0...numbers[0]).map { |i| numbers[1 + 2 * i] + numbers[2 + 2 * i] }
