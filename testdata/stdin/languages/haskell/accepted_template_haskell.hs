-- expect: AC
-- t, then t pairs: each pair's sum on a line of its own, with a Template Haskell splice, which makes
-- GHC build the program's objects for its own loader too: the judge's C helpers (the RTS hook, the
-- thread stack) must be position-independent, or the link fails ("requires dynamic R_X86_64_32 reloc
-- ... recompile with -fPIC": a CE of the judge's making).
{-# LANGUAGE TemplateHaskell #-}
main :: IO ()
main = do
  numbers <- map read . words <$> getContents :: IO [Integer]
  let pairs (a : b : rest) = (a + b + $([| 0 |])) : pairs rest
      pairs _ = []
  mapM_ print (take (fromInteger (head numbers)) (pairs (tail numbers)))
