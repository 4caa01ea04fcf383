-- This number belongs to the drops' migration, built beside the tournaments (0034): until both are
-- merged, this file keeps the history without a gap. It changes nothing; the drops' file replaces it.
SELECT 1;
