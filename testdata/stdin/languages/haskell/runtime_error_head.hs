-- expect: RE
-- head of an empty list: an exception, exit status 1.
main :: IO ()
main = do
  numbers <- map read . words <$> getContents :: IO [Int]
  print (head (filter (> 10 ^ 12) numbers))
