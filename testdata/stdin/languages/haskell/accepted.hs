-- expect: AC
-- t, then t pairs: each pair's sum on a line of its own (Integer: one sum is 2**31).
main :: IO ()
main = do
  numbers <- map read . words <$> getContents :: IO [Integer]
  let pairs (a : b : rest) = (a + b) : pairs rest
      pairs _ = []
  mapM_ print (take (fromInteger (head numbers)) (pairs (tail numbers)))
