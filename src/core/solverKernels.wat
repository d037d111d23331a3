;; The solver's hot loops as WebAssembly: distance constraints, isometric bending and tethers, and the prediction and
;; velocities of each substep. Each is the JavaScript loop of its class (`distanceConstraints.ts`,
;; `isometricBendConstraints.ts`, `tetherConstraints.ts`, `xpbdWorld.ts`) operation for operation, in the same order,
;; so the results are bit-identical: IEEE double arithmetic, one rounding per operation, no fused multiply-add, in
;; both languages. What WebAssembly saves is what V8 adds to a typed-array
;; loop: bounds checks and conversions on every access (1.4x on bending, 1.7x on distances, measured per constraint).
;;
;; Arguments are byte offsets into the body's memory (`kernelMemory.ts`) and counts: particle indices as i32,
;; everything else as f64, positions as xyz triples. The real-valued arguments of each kernel (α̃, α/h², the slack;
;; the prediction's four) are read from the memory's first 32 bytes: a double passed from JavaScript to WebAssembly may be boxed on the
;; heap, a small integer never is, so the step stays allocation-free. `npm run build:kernels` assembles this file into `solverKernelsBinary.ts`.
(module
  (import "env" "memory" (memory 1))

  ;; Distance constraints, front to back: idx (i32 pairs), rest lengths, lambdas; x, inverse masses w. Scalar: α̃.
  ;; Independent (one i32 per constraint) is for the SIMD kernel, which takes the same arguments; this one does not
  ;; read it.
  (func (export "distance")
    (param $idx i32) (param $rest i32) (param $lam i32) (param $count i32) (param $x i32) (param $w i32) (param $independent i32)
    (local $at f64) (local $c i32) (local $pa i32) (local $pb i32) (local $wa f64) (local $wb f64) (local $wsum f64)
    (local $i i32) (local $j i32) (local $dx f64) (local $dy f64) (local $dz f64) (local $len f64) (local $s f64)
    (local $ws f64)
    (local.set $at (f64.load (i32.const 0)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $c) (local.get $count)))
        (local.set $pa (i32.load (i32.add (local.get $idx) (i32.shl (local.get $c) (i32.const 3)))))
        (local.set $pb (i32.load offset=4 (i32.add (local.get $idx) (i32.shl (local.get $c) (i32.const 3)))))
        (local.set $wa (f64.load (i32.add (local.get $w) (i32.shl (local.get $pa) (i32.const 3)))))
        (local.set $wb (f64.load (i32.add (local.get $w) (i32.shl (local.get $pb) (i32.const 3)))))
        (local.set $wsum (f64.add (local.get $wa) (local.get $wb)))
        (if (f64.ne (local.get $wsum) (f64.const 0))
          (then
            (local.set $i (i32.add (local.get $x) (i32.mul (local.get $pa) (i32.const 24))))
            (local.set $j (i32.add (local.get $x) (i32.mul (local.get $pb) (i32.const 24))))
            (local.set $dx (f64.sub (f64.load (local.get $j)) (f64.load (local.get $i))))
            (local.set $dy (f64.sub (f64.load offset=8 (local.get $j)) (f64.load offset=8 (local.get $i))))
            (local.set $dz (f64.sub (f64.load offset=16 (local.get $j)) (f64.load offset=16 (local.get $i))))
            (local.set $len (f64.sqrt (f64.add (f64.add (f64.mul (local.get $dx) (local.get $dx))
                                                        (f64.mul (local.get $dy) (local.get $dy)))
                                               (f64.mul (local.get $dz) (local.get $dz)))))
            (if (i32.eqz (f64.lt (local.get $len) (f64.const 1e-12)))
              (then
                ;; s = (L - |d| - at*lam) / ((wsum + at) * |d|)
                (local.set $s
                  (f64.div
                    (f64.sub (f64.sub (f64.load (i32.add (local.get $rest) (i32.shl (local.get $c) (i32.const 3)))) (local.get $len))
                             (f64.mul (local.get $at) (f64.load (i32.add (local.get $lam) (i32.shl (local.get $c) (i32.const 3))))))
                    (f64.mul (f64.add (local.get $wsum) (local.get $at)) (local.get $len))))
                (f64.store (i32.add (local.get $lam) (i32.shl (local.get $c) (i32.const 3)))
                  (f64.add (f64.load (i32.add (local.get $lam) (i32.shl (local.get $c) (i32.const 3))))
                           (f64.mul (local.get $s) (local.get $len))))
                (local.set $ws (f64.mul (local.get $wa) (local.get $s)))
                (f64.store (local.get $i) (f64.sub (f64.load (local.get $i)) (f64.mul (local.get $ws) (local.get $dx))))
                (f64.store offset=8 (local.get $i) (f64.sub (f64.load offset=8 (local.get $i)) (f64.mul (local.get $ws) (local.get $dy))))
                (f64.store offset=16 (local.get $i) (f64.sub (f64.load offset=16 (local.get $i)) (f64.mul (local.get $ws) (local.get $dz))))
                (local.set $ws (f64.mul (local.get $wb) (local.get $s)))
                (f64.store (local.get $j) (f64.add (f64.load (local.get $j)) (f64.mul (local.get $ws) (local.get $dx))))
                (f64.store offset=8 (local.get $j) (f64.add (f64.load offset=8 (local.get $j)) (f64.mul (local.get $ws) (local.get $dy))))
                (f64.store offset=16 (local.get $j) (f64.add (f64.load offset=16 (local.get $j)) (f64.mul (local.get $ws) (local.get $dz))))))))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $next))))

  ;; Tethers: tethered particles and anchors (i32), lengths; x. Scalar: the slack.
  (func (export "tethers")
    (param $particles i32) (param $anchors i32) (param $lengths i32) (param $count i32) (param $x i32)
    (local $slack f64) (local $k i32) (local $i i32) (local $a i32) (local $dx f64) (local $dy f64) (local $dz f64) (local $d2 f64)
    (local $limit f64) (local $s f64)
    (local.set $slack (f64.load (i32.const 0)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $k) (local.get $count)))
        (local.set $i (i32.add (local.get $x) (i32.mul (i32.load (i32.add (local.get $particles) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 24))))
        (local.set $a (i32.add (local.get $x) (i32.mul (i32.load (i32.add (local.get $anchors) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 24))))
        (local.set $dx (f64.sub (f64.load (local.get $i)) (f64.load (local.get $a))))
        (local.set $dy (f64.sub (f64.load offset=8 (local.get $i)) (f64.load offset=8 (local.get $a))))
        (local.set $dz (f64.sub (f64.load offset=16 (local.get $i)) (f64.load offset=16 (local.get $a))))
        (local.set $d2 (f64.add (f64.add (f64.mul (local.get $dx) (local.get $dx)) (f64.mul (local.get $dy) (local.get $dy)))
                                (f64.mul (local.get $dz) (local.get $dz))))
        (local.set $limit (f64.mul (f64.load (i32.add (local.get $lengths) (i32.shl (local.get $k) (i32.const 3)))) (local.get $slack)))
        (if (f64.gt (local.get $d2) (f64.mul (local.get $limit) (local.get $limit)))
          (then
            (local.set $s (f64.div (local.get $limit) (f64.sqrt (local.get $d2))))
            (f64.store (local.get $i) (f64.add (f64.load (local.get $a)) (f64.mul (local.get $dx) (local.get $s))))
            (f64.store offset=8 (local.get $i) (f64.add (f64.load offset=8 (local.get $a)) (f64.mul (local.get $dy) (local.get $s))))
            (f64.store offset=16 (local.get $i) (f64.add (f64.load offset=16 (local.get $a)) (f64.mul (local.get $dz) (local.get $s))))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next))))

  ;; Isometric bending, back to front when reverse is 1: idx (a, b, c, d per element), weights (4 per element),
  ;; squared hinge lengths, lambdas; x, w. Scalar: α/h². Independent (one i32 per element) is for the SIMD kernel
  ;; (see solverKernelsSimd.wat), which takes the same arguments; this one does not read it.
  (func (export "isometricBend")
    (param $idx i32) (param $kw i32) (param $hl2 i32) (param $lam i32) (param $count i32) (param $x i32) (param $w i32)
    (param $reverse i32) (param $independent i32)
    (local $alphaScale f64) (local $k i32) (local $e i32) (local $first i32) (local $step i32)
    (local $ia i32) (local $ib i32) (local $ic i32) (local $id i32)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32) (local $q i32)
    (local $ka f64) (local $kb f64) (local $kc f64) (local $kd f64)
    (local $cx f64) (local $cy f64) (local $cz f64)
    (local $acx f64) (local $acy f64) (local $acz f64)
    (local $bcx f64) (local $bcy f64) (local $bcz f64)
    (local $dcx f64) (local $dcy f64) (local $dcz f64)
    (local $sx f64) (local $sy f64) (local $sz f64)
    (local $fx f64) (local $fy f64) (local $fz f64)
    (local $nx f64) (local $ny f64) (local $nz f64) (local $n2 f64)
    (local $sn f64) (local $inPlane i32) (local $invLength f64) (local $bendError f64) (local $invN2 f64) (local $beta f64) (local $gamma f64)
    (local $ga f64) (local $gb f64) (local $gc f64) (local $gd f64)
    (local $wa f64) (local $wb f64) (local $wc f64) (local $wd f64)
    (local $alphaTilde f64) (local $den f64) (local $dLambda f64) (local $t f64) (local $f f64) (local $lp i32)
    (local.set $alphaScale (f64.load (i32.const 0)))
    (if (local.get $reverse)
      (then (local.set $first (i32.sub (local.get $count) (i32.const 1))) (local.set $step (i32.const -1)))
      (else (local.set $first (i32.const 0)) (local.set $step (i32.const 1))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $k) (local.get $count)))
        (local.set $e (i32.add (local.get $first) (i32.mul (local.get $step) (local.get $k))))
        (local.set $q (i32.add (local.get $idx) (i32.shl (local.get $e) (i32.const 4))))
        (local.set $ia (i32.load (local.get $q)))
        (local.set $ib (i32.load offset=4 (local.get $q)))
        (local.set $ic (i32.load offset=8 (local.get $q)))
        (local.set $id (i32.load offset=12 (local.get $q)))
        (local.set $a (i32.add (local.get $x) (i32.mul (local.get $ia) (i32.const 24))))
        (local.set $b (i32.add (local.get $x) (i32.mul (local.get $ib) (i32.const 24))))
        (local.set $c (i32.add (local.get $x) (i32.mul (local.get $ic) (i32.const 24))))
        (local.set $d (i32.add (local.get $x) (i32.mul (local.get $id) (i32.const 24))))
        (local.set $q (i32.add (local.get $kw) (i32.shl (local.get $e) (i32.const 5))))
        (local.set $ka (f64.load (local.get $q)))
        (local.set $kb (f64.load offset=8 (local.get $q)))
        (local.set $kc (f64.load offset=16 (local.get $q)))
        (local.set $kd (f64.load offset=24 (local.get $q)))
        (local.set $cx (f64.load (local.get $c)))
        (local.set $cy (f64.load offset=8 (local.get $c)))
        (local.set $cz (f64.load offset=16 (local.get $c)))
        (local.set $acx (f64.sub (f64.load (local.get $a)) (local.get $cx)))
        (local.set $acy (f64.sub (f64.load offset=8 (local.get $a)) (local.get $cy)))
        (local.set $acz (f64.sub (f64.load offset=16 (local.get $a)) (local.get $cz)))
        (local.set $bcx (f64.sub (f64.load (local.get $b)) (local.get $cx)))
        (local.set $bcy (f64.sub (f64.load offset=8 (local.get $b)) (local.get $cy)))
        (local.set $bcz (f64.sub (f64.load offset=16 (local.get $b)) (local.get $cz)))
        (local.set $dcx (f64.sub (f64.load (local.get $d)) (local.get $cx)))
        (local.set $dcy (f64.sub (f64.load offset=8 (local.get $d)) (local.get $cy)))
        (local.set $dcz (f64.sub (f64.load offset=16 (local.get $d)) (local.get $cz)))
        ;; s = ka*ac + kb*bc + kd*dc, left to right
        (local.set $sx (f64.add (f64.add (f64.mul (local.get $ka) (local.get $acx)) (f64.mul (local.get $kb) (local.get $bcx))) (f64.mul (local.get $kd) (local.get $dcx))))
        (local.set $sy (f64.add (f64.add (f64.mul (local.get $ka) (local.get $acy)) (f64.mul (local.get $kb) (local.get $bcy))) (f64.mul (local.get $kd) (local.get $dcy))))
        (local.set $sz (f64.add (f64.add (f64.mul (local.get $ka) (local.get $acz)) (f64.mul (local.get $kb) (local.get $bcz))) (f64.mul (local.get $kd) (local.get $dcz))))
        (local.set $fx (f64.sub (local.get $bcx) (local.get $acx)))
        (local.set $fy (f64.sub (local.get $bcy) (local.get $acy)))
        (local.set $fz (f64.sub (local.get $bcz) (local.get $acz)))
        (local.set $nx (f64.sub (f64.mul (local.get $dcy) (local.get $fz)) (f64.mul (local.get $dcz) (local.get $fy))))
        (local.set $ny (f64.sub (f64.mul (local.get $dcz) (local.get $fx)) (f64.mul (local.get $dcx) (local.get $fz))))
        (local.set $nz (f64.sub (f64.mul (local.get $dcx) (local.get $fy)) (f64.mul (local.get $dcy) (local.get $fx))))
        (local.set $n2 (f64.add (f64.add (f64.mul (local.get $nx) (local.get $nx)) (f64.mul (local.get $ny) (local.get $ny))) (f64.mul (local.get $nz) (local.get $nz))))
        (block $skip
          (br_if $skip (f64.lt (local.get $n2) (f64.const 1e-30)))
          (local.set $sn (f64.add (f64.add (f64.mul (local.get $sx) (local.get $nx)) (f64.mul (local.get $sy) (local.get $ny))) (f64.mul (local.get $sz) (local.get $nz))))
          ;; No fold and no λ yet: Δλ = 0, nothing moves.
          (br_if $skip (i32.and (f64.eq (local.get $sn) (f64.const 0))
                                (f64.eq (f64.load (i32.add (local.get $lam) (i32.shl (local.get $e) (i32.const 3)))) (f64.const 0))))
          ;; (sx*sx + sy*sy + sz*sz) * n2 - sn*sn > 1e-6 * (dcx*dcx + dcy*dcy + dcz*dcz) * n2, before the square root
          (local.set $inPlane (f64.gt
            (f64.sub (f64.mul (f64.add (f64.add (f64.mul (local.get $sx) (local.get $sx)) (f64.mul (local.get $sy) (local.get $sy))) (f64.mul (local.get $sz) (local.get $sz)))
                              (local.get $n2))
                     (f64.mul (local.get $sn) (local.get $sn)))
            (f64.mul (f64.mul (f64.const 1e-6)
                              (f64.add (f64.add (f64.mul (local.get $dcx) (local.get $dcx)) (f64.mul (local.get $dcy) (local.get $dcy))) (f64.mul (local.get $dcz) (local.get $dcz))))
                     (local.get $n2))))
          (local.set $invLength (f64.div (f64.const 1) (f64.sqrt (local.get $n2))))
          (local.set $bendError (f64.mul (local.get $sn) (local.get $invLength)))
          (local.set $ga (local.get $ka))
          (local.set $gb (local.get $kb))
          (local.set $gc (local.get $kc))
          (local.set $gd (local.get $kd))
          (if (local.get $inPlane)
            (then
              (local.set $invN2 (f64.mul (local.get $invLength) (local.get $invLength)))
              ;; beta = (sx*(dcy*nz - dcz*ny) + sy*(dcz*nx - dcx*nz) + sz*(dcx*ny - dcy*nx)) * invN2
              (local.set $beta (f64.mul
                (f64.add (f64.add
                  (f64.mul (local.get $sx) (f64.sub (f64.mul (local.get $dcy) (local.get $nz)) (f64.mul (local.get $dcz) (local.get $ny))))
                  (f64.mul (local.get $sy) (f64.sub (f64.mul (local.get $dcz) (local.get $nx)) (f64.mul (local.get $dcx) (local.get $nz)))))
                  (f64.mul (local.get $sz) (f64.sub (f64.mul (local.get $dcx) (local.get $ny)) (f64.mul (local.get $dcy) (local.get $nx)))))
                (local.get $invN2)))
              (local.set $gamma (f64.mul
                (f64.add (f64.add
                  (f64.mul (local.get $sx) (f64.sub (f64.mul (local.get $fy) (local.get $nz)) (f64.mul (local.get $fz) (local.get $ny))))
                  (f64.mul (local.get $sy) (f64.sub (f64.mul (local.get $fz) (local.get $nx)) (f64.mul (local.get $fx) (local.get $nz)))))
                  (f64.mul (local.get $sz) (f64.sub (f64.mul (local.get $fx) (local.get $ny)) (f64.mul (local.get $fy) (local.get $nx)))))
                (local.get $invN2)))
              (local.set $ga (f64.sub (local.get $ga) (local.get $beta)))
              (local.set $gb (f64.add (local.get $gb) (local.get $beta)))
              (local.set $gc (f64.add (local.get $gc) (local.get $gamma)))
              (local.set $gd (f64.sub (local.get $gd) (local.get $gamma)))))
          (local.set $wa (f64.load (i32.add (local.get $w) (i32.shl (local.get $ia) (i32.const 3)))))
          (local.set $wb (f64.load (i32.add (local.get $w) (i32.shl (local.get $ib) (i32.const 3)))))
          (local.set $wc (f64.load (i32.add (local.get $w) (i32.shl (local.get $ic) (i32.const 3)))))
          (local.set $wd (f64.load (i32.add (local.get $w) (i32.shl (local.get $id) (i32.const 3)))))
          (local.set $alphaTilde (f64.mul (local.get $alphaScale) (f64.load (i32.add (local.get $hl2) (i32.shl (local.get $e) (i32.const 3))))))
          ;; wa*ga*ga + wb*gb*gb + wc*gc*gc + wd*gd*gd + alphaTilde, left to right
          (local.set $den (f64.add (f64.add (f64.add (f64.add
            (f64.mul (f64.mul (local.get $wa) (local.get $ga)) (local.get $ga))
            (f64.mul (f64.mul (local.get $wb) (local.get $gb)) (local.get $gb)))
            (f64.mul (f64.mul (local.get $wc) (local.get $gc)) (local.get $gc)))
            (f64.mul (f64.mul (local.get $wd) (local.get $gd)) (local.get $gd)))
            (local.get $alphaTilde)))
          (br_if $skip (f64.eq (local.get $den) (f64.const 0)))
          (local.set $lp (i32.add (local.get $lam) (i32.shl (local.get $e) (i32.const 3))))
          ;; (-bendError - alphaTilde*lam) / den
          (local.set $dLambda (f64.div
            (f64.sub (f64.neg (local.get $bendError)) (f64.mul (local.get $alphaTilde) (f64.load (local.get $lp))))
            (local.get $den)))
          (f64.store (local.get $lp) (f64.add (f64.load (local.get $lp)) (local.get $dLambda)))
          (local.set $t (f64.mul (local.get $dLambda) (local.get $invLength)))
          (local.set $f (f64.mul (f64.mul (local.get $wa) (local.get $ga)) (local.get $t)))
          (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64.mul (local.get $f) (local.get $nx))))
          (f64.store offset=8 (local.get $a) (f64.add (f64.load offset=8 (local.get $a)) (f64.mul (local.get $f) (local.get $ny))))
          (f64.store offset=16 (local.get $a) (f64.add (f64.load offset=16 (local.get $a)) (f64.mul (local.get $f) (local.get $nz))))
          (local.set $f (f64.mul (f64.mul (local.get $wb) (local.get $gb)) (local.get $t)))
          (f64.store (local.get $b) (f64.add (f64.load (local.get $b)) (f64.mul (local.get $f) (local.get $nx))))
          (f64.store offset=8 (local.get $b) (f64.add (f64.load offset=8 (local.get $b)) (f64.mul (local.get $f) (local.get $ny))))
          (f64.store offset=16 (local.get $b) (f64.add (f64.load offset=16 (local.get $b)) (f64.mul (local.get $f) (local.get $nz))))
          (local.set $f (f64.mul (f64.mul (local.get $wc) (local.get $gc)) (local.get $t)))
          (f64.store (local.get $c) (f64.add (f64.load (local.get $c)) (f64.mul (local.get $f) (local.get $nx))))
          (f64.store offset=8 (local.get $c) (f64.add (f64.load offset=8 (local.get $c)) (f64.mul (local.get $f) (local.get $ny))))
          (f64.store offset=16 (local.get $c) (f64.add (f64.load offset=16 (local.get $c)) (f64.mul (local.get $f) (local.get $nz))))
          (local.set $f (f64.mul (f64.mul (local.get $wd) (local.get $gd)) (local.get $t)))
          (f64.store (local.get $d) (f64.add (f64.load (local.get $d)) (f64.mul (local.get $f) (local.get $nx))))
          (f64.store offset=8 (local.get $d) (f64.add (f64.load offset=8 (local.get $d)) (f64.mul (local.get $f) (local.get $ny))))
          (f64.store offset=16 (local.get $d) (f64.add (f64.load offset=16 (local.get $d)) (f64.mul (local.get $f) (local.get $nz)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next))))

  ;; The start of a substep (`XpbdWorld._predict`): x copied to xPrev, then each free particle's velocity v advanced by
  ;; gravity and the forces f (external) and aero (aerodynamic) over h, and x by v over h; w the inverse masses, n the
  ;; particles. Scalars: h, then gravity·h along x, y, z.
  (func (export "predict")
    (param $x i32) (param $xPrev i32) (param $v i32) (param $w i32) (param $f i32) (param $aero i32) (param $n i32)
    (local $h f64) (local $gx f64) (local $gy f64) (local $gz f64) (local $p i32) (local $wh f64) (local $i i32)
    (local $px f64) (local $py f64) (local $pz f64) (local $vx f64) (local $vy f64) (local $vz f64)
    (local.set $h (f64.load (i32.const 0)))
    (local.set $gx (f64.load (i32.const 8)))
    (local.set $gy (f64.load (i32.const 16)))
    (local.set $gz (f64.load (i32.const 24)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $p) (local.get $n)))
        (local.set $i (i32.mul (local.get $p) (i32.const 24)))
        (local.set $px (f64.load (i32.add (local.get $x) (local.get $i))))
        (local.set $py (f64.load offset=8 (i32.add (local.get $x) (local.get $i))))
        (local.set $pz (f64.load offset=16 (i32.add (local.get $x) (local.get $i))))
        (f64.store (i32.add (local.get $xPrev) (local.get $i)) (local.get $px))
        (f64.store offset=8 (i32.add (local.get $xPrev) (local.get $i)) (local.get $py))
        (f64.store offset=16 (i32.add (local.get $xPrev) (local.get $i)) (local.get $pz))
        (local.set $wh (f64.mul (f64.load (i32.add (local.get $w) (i32.shl (local.get $p) (i32.const 3)))) (local.get $h)))
        (if (f64.ne (local.get $wh) (f64.const 0))
          (then
            ;; v += g·h + (f + aero)·w·h, then x += v·h.
            (local.set $vx (f64.add (f64.load (i32.add (local.get $v) (local.get $i)))
              (f64.add (local.get $gx) (f64.mul (f64.add (f64.load (i32.add (local.get $f) (local.get $i)))
                                                        (f64.load (i32.add (local.get $aero) (local.get $i)))) (local.get $wh)))))
            (local.set $vy (f64.add (f64.load offset=8 (i32.add (local.get $v) (local.get $i)))
              (f64.add (local.get $gy) (f64.mul (f64.add (f64.load offset=8 (i32.add (local.get $f) (local.get $i)))
                                                        (f64.load offset=8 (i32.add (local.get $aero) (local.get $i)))) (local.get $wh)))))
            (local.set $vz (f64.add (f64.load offset=16 (i32.add (local.get $v) (local.get $i)))
              (f64.add (local.get $gz) (f64.mul (f64.add (f64.load offset=16 (i32.add (local.get $f) (local.get $i)))
                                                        (f64.load offset=16 (i32.add (local.get $aero) (local.get $i)))) (local.get $wh)))))
            (f64.store (i32.add (local.get $v) (local.get $i)) (local.get $vx))
            (f64.store offset=8 (i32.add (local.get $v) (local.get $i)) (local.get $vy))
            (f64.store offset=16 (i32.add (local.get $v) (local.get $i)) (local.get $vz))
            (f64.store (i32.add (local.get $x) (local.get $i)) (f64.add (local.get $px) (f64.mul (local.get $vx) (local.get $h))))
            (f64.store offset=8 (i32.add (local.get $x) (local.get $i)) (f64.add (local.get $py) (f64.mul (local.get $vy) (local.get $h))))
            (f64.store offset=16 (i32.add (local.get $x) (local.get $i)) (f64.add (local.get $pz) (f64.mul (local.get $vz) (local.get $h))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next))))

  ;; The end of a substep (`XpbdWorld._finishSubstep`): v = (x − xPrev) / h over the first `length` values. Scalar: 1/h.
  (func (export "velocities")
    (param $x i32) (param $xPrev i32) (param $v i32) (param $length i32)
    (local $invH f64) (local $k i32) (local $end i32)
    (local.set $invH (f64.load (i32.const 0)))
    (local.set $end (i32.shl (local.get $length) (i32.const 3)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $k) (local.get $end)))
        (f64.store (i32.add (local.get $v) (local.get $k))
          (f64.mul (f64.sub (f64.load (i32.add (local.get $x) (local.get $k))) (f64.load (i32.add (local.get $xPrev) (local.get $k))))
                   (local.get $invH)))
        (local.set $k (i32.add (local.get $k) (i32.const 8)))
        (br $next))))
)
