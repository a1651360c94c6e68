-- expect: TLE
spin :: Int -> Int
spin n = if n == -1 then n else spin (n + 1)

main :: IO ()
main = print (spin 0)
