# --print is a fixed point on a specification written in an odd style.
. "$(dirname "$0")/lib.inc"
cat > "$dir/odd.bsp" <<'SPEC'
param m,n ; grid M,N; assume m>=M and n>=N , m%M==0;
array A[m][n],B[n][m] size 8;
dist r=block|cyclic(2) over M; layout A:r x block over N;
candidate x{layout B:block over N x r;} candidate y { layout B : * x cyclic over M ; }
superstep t{forall i<m,j<n where (i+1)*2<=m+1: B[j][i]=A[i][j]*(-(2-(1-A[i][j]))) work (3);
B[0][0] = (sum i<m|r(i)!=0 : A[i][0]) / 2;}
SPEC
run --print "$dir/odd.bsp"
expect_status 0
cp "$dir/out" "$dir/p1.bsp"
run --print "$dir/p1.bsp"
expect_status 0
cmp -s "$dir/out" "$dir/p1.bsp" || fail "printing the printed form changed it"
expect_out "forall i < m, j < n | (i + 1) * 2 <= m + 1 :"
expect_out "B[j][i] = A[i][j] * -(2 - (1 - A[i][j])) work 3;"
expect_out "B[0][0] = (sum i < m | r(i) != 0 : A[i][0]) / 2;"
