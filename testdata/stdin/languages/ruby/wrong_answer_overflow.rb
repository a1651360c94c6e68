# expect: WA
# A sum packed into 32 bits and read back as signed: 2147483647 + 1 gives -2147483648.
numbers = STDIN.read.split.map(&:to_i)
numbers[0].times { |i| puts [numbers[1 + 2 * i] + numbers[2 + 2 * i]].pack("l").unpack1("l") }
