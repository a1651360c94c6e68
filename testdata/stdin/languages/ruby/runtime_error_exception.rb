# expect: RE
# A method of nil: an uncaught NoMethodError, exit status 1.
numbers = STDIN.read.split.map(&:to_i)
puts numbers[numbers.size + 4].succ
